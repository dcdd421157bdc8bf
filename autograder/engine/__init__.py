"""Grading one hand-in, as one flow: submission (find and load) → worker/ (the cage, its protocol and codec)
→ proxy → runner and plugin (the suite in this process) → scoring (pure) → results (the one GradeResult)."""
