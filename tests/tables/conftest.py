"""The conflict table of tests/conflicts/test_views.py (Abe and Bess against a stud), for the
kit's tests."""

from tests.conflicts.test_views import posse, table  # noqa: F401 (fixtures)
