"""Our GTP engines, one module or folder each, behind one GTP adapter."""
