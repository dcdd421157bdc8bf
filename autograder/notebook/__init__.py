"""What the students' notebooks import: the check cells (``checker``) and the token view (``show_rows``)."""
