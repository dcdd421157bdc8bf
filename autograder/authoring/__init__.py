"""What the instructor builds from solutions/ and exercises/src: stubs, notebooks, the student release and
the Gradescope package."""
