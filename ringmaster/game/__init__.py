"""One game on a worker: a GameJob in, its engines started, refereed; a GameJobResult and its record out."""
