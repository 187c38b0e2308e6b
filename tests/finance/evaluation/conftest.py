import pytest

from tests.finance.evaluation.factories import make_document


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice, name="Evaluation", kind="finance")


@pytest.fixture
def document(workspace):
    return make_document(workspace)
