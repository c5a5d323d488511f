rockspec_format = "3.0"
package = "impact"
version = "scm-1"
source = {
  url = "git+https://example.invalid/impact.git",
}
description = {
  summary = "Rigid-body contact simulation: C physics, Lua 5.4 scenes",
  detailed = [[
impact simulates rigid bodies in 2D and 3D. C modules do the physics (forces, fixed-step
and GSL adaptive integrators); Lua 5.4 scripts compose scenes, react to events and record
results.]],
  license = "MIT",
}
dependencies = {
  "lua >= 5.4, < 5.5",
}
external_dependencies = {
  GSL = { header = "gsl/gsl_odeiv2.h", library = "gsl" },
  CAIRO = { header = "cairo/cairo.h", library = "cairo" },
}
build = {
  type = "make",
  build_target = "all",
  build_variables = {
    CFLAGS = "$(CFLAGS)",
    LIBFLAG = "$(LIBFLAG)",
    LUA_INCDIR = "$(LUA_INCDIR)",
    GSL_CFLAGS = "-I$(GSL_INCDIR)",
    GSL_LIBS = "-L$(GSL_LIBDIR) -lgsl -lgslcblas -lm",
    CAIRO_CFLAGS = "-I$(CAIRO_INCDIR)/cairo",
    CAIRO_LIBS = "-L$(CAIRO_LIBDIR) -lcairo",
  },
  install_target = "install",
  install_variables = {
    LIBDIR = "$(LIBDIR)",
    LUADIR = "$(LUADIR)",
    BINDIR = "$(BINDIR)",
  },
}
test = {
  type = "command",
  command = "make test",
}
