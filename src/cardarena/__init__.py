"""cardarena: reinforcement-learning environments, agents and self-play training for card games."""

import os

# Networks here run at batch sizes of 1 to a few rows, where OpenBLAS's threads only wait on each
# other (on a busy 2-core machine a 4-row forward pass took 20 ms instead of 0.4): one thread,
# unless the user chose otherwise. Set before numpy loads OpenBLAS, which reads it then.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
