"""GTP, both sides: the controller that drives engines and the engine-side protocol."""
