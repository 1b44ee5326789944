"""Forms for the conflict screens, by what they do:

- ``moves``: one small form per table move (``ACTIONS``), each with the table's version and an
  idempotency key; the engine checks the rules;
- ``setup``: setting a conflict up (``ConflictCreateForm``).
"""

from conflicts.forms.moves import ACTIONS, AdviceForm, MoveForm, NarrateForm
from conflicts.forms.setup import ConflictCreateForm
from tables.forms import problem_of

__all__ = ["ACTIONS", "AdviceForm", "ConflictCreateForm", "MoveForm", "NarrateForm", "problem_of"]
