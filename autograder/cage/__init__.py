"""The cage, host side: where student code runs (bubblewrap's sandbox, a container's user, or a plain
process), with its limits, and the client the grader talks to it through. What runs inside the cage is in
``inside/``, standard library only, copied into the cage: the trust boundary is that folder."""
