"""Many hand-ins and the platforms they come from: the batch with its gradebook, LMS downloads and
exports, nbgrader, Gradescope."""
