"""Many hand-ins and the platforms they come from: the batch with its gradebook and summary, LMS downloads,
nbgrader, Gradescope, Jupyter check cells, GitHub Classroom."""
