"""The notebooks' exercises, one module per notebook: ``ex01`` holds notebook 01's, and so on.

Each module is course content: for every exercise its id ("01-2"), its expected answer, the
mistakes it anticipates with their hints, and its worked solution. The self-check mechanism is
:mod:`perclib.exercises`. A notebook (run with notebooks/ as its working directory) loads its own:

    from exercises.ex01 import check, check_function, show_solution
"""
