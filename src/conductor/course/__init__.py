"""What only the lessons use: tours of the wire formats and the loops written by hand.

The library core (conductor/*.py) stays flat beside it; lessons import from here
what they show but a production program would not need.
"""
