"""The compiler: the driver (`driver.compile_repo`) and its stages — plan, revocation, context,
resolution, merge, topics, communities — over the values in `wikigen.model`."""
