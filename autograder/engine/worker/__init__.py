"""The caged worker: the interpreter that runs student code, and the grader's end of its pipe."""
