"""Data files of the house edition (YAML); installed with solo so a plain `pip install .` finds them."""
