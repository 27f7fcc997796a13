"""Functions and methods read the tensors and sizes their module binds once (global_facts.py): a
script's `table = torch.randn(...)` or `block_size = 8` at the top, used inside its helpers."""
import pytest

from .conftest import codes

SCRIPT = """
import torch
import torch.nn as nn

vocab_size, width = 50, 8
{binding}

{reader}

if __name__ == "__main__":
    print(lookup(torch.randint(0, vocab_size, (4,))))
"""

READERS = {
    "function": """
def lookup(ids):
    return table.gather(1, ids{tail})
""",
    "method": """
class Head(nn.Module):
    def forward(self, ids):
        return torch.gather(table, 1, ids{tail})

def lookup(ids):
    return Head()(ids)
""",
}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("binding, tail, fires", [
    ("table = torch.randn(vocab_size, width)", "", True),                     # [4] into a 2-d table
    ("table: torch.Tensor = torch.zeros(vocab_size, width)", "", True),
    ("table = torch.randn(vocab_size, width)", "[:, None]", False),           # the correct rank
    ("table = torch.randn(vocab_size, width)\ntable = table.t().contiguous().view(-1)", "", False),  # bound twice
    ("for _ in range(2):\n    table = torch.randn(vocab_size, width)", "", False),  # bound in a loop
])
def test_module_tensor_reaches_the_function(reader, binding, tail, fires):
    code = SCRIPT.format(binding=binding, reader=READERS[reader].format(tail=tail))
    assert ("GL001" in codes(code)) == fires, code


def test_rebound_through_global_stays_unknown():
    code = """
    import torch
    table = torch.randn(50, 8)

    def reset():
        global table
        table = torch.randn(50)

    def lookup(ids):
        return table.gather(0, ids)

    if __name__ == "__main__":
        reset()
        lookup(torch.zeros(4, dtype=torch.long))
    """
    assert codes(code) == []


def test_a_parameter_shadows_the_module_name():
    code = """
    import torch
    table = torch.randn(50, 8)

    def lookup(table, ids):
        return table.gather(0, ids)
    """
    assert codes(code) == []


def test_module_size_reaches_the_function(torch):
    code = """
    import torch
    block_size = 8
    n_embd = 16

    def positions(x):
        '''Args:
            x (Tensor of shape (batch, n_embd)): one row per sequence.
        '''
        table = torch.randn(block_size, n_embd)
        pos = torch.arange(block_size)
        return table.index_select(0, pos).gather(1, x.long().view(-1))
    """
    assert codes(code) == ["GL001"]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(8, 16).gather(1, torch.zeros(32, dtype=torch.long))


def test_what_torch_does_with_the_script_table(torch):
    table = torch.randn(50, 8)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        table.gather(1, torch.randint(0, 50, (4,)))
    assert table.gather(1, torch.randint(0, 8, (4,))[:, None]).shape == (4, 1)


@pytest.mark.parametrize("container, fires", [
    ("history = [torch.zeros(4, 3)]", False),             # a list: any function may append to it
    ("history = {'last': torch.zeros(4, 3)}", False),     # a dict: any function may rewrite an item
    ("history = (torch.zeros(4, 3),)", True),             # a tuple holds what it was built with
])
def test_module_lists_and_dicts_are_not_carried(container, fires):
    read = "history['last']" if "{" in container else "history[-1]"
    code = f"""
import torch
{container}

def lookup(ids):
    # ids: [N]
    picked = ids.long()
    return {read}.gather(1, picked)
"""
    assert (codes(code) == ["GL001"]) == fires, code


CLASS_LIST = """
import torch
import torch.nn as nn

CLASSES = ["brain", "muscle", "eye", "heart", "line_noise", "channel_noise", "other"]
{mutation}

class Classifier(nn.Module):
    def __init__(self, n_features=20):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, len(CLASSES)))

    def forward(self, feats):
        return self.net(feats).softmax(dim=-1)


def label(model, feats):
    {doc}proba = model(feats)
    picked = proba.argmax(dim=1)
    return proba[:, picked]


def main():
    return label(Classifier(), torch.randn(15, 20))

if __name__ == "__main__":
    main()
"""
DOC = '''"""Label components.

    Args:
        model: classifier returning class probabilities of shape (n_components, n_classes).
        feats: component features of shape (n_components, n_features).
    """
    '''


@pytest.mark.parametrize("doc", ["", DOC], ids=["bare", "docstring"])
@pytest.mark.parametrize("mutation, fires", [
    ("", True),                                   # the list as written: len(CLASSES) is 7
    ("CLASSES.append('unknown')", False),         # a list the file grows: its length is not the written one
    ("CLASSES += ['unknown']", False),
])
def test_a_module_list_nothing_changes_has_its_written_length(torch, doc, mutation, fires):
    """`nn.Linear(32, len(CLASSES))` with a module list of seven names is a head of 7 columns: its argmax
    picks, one per row of 15, index the columns of every row ([15, 15]). A docstring saying `model` returns
    probabilities of shape (n, c) describes its output, not the module the caller passes."""
    code = CLASS_LIST.format(mutation=mutation, doc=doc)
    assert ("GL017" in codes(code)) == fires
    scope = {"__name__": "snippet"}
    exec(code, scope)  # noqa: S102 - the program under test
    assert tuple(scope["main"]().shape) == (15, 15)  # torch: every row read at every row's pick


KEYWORD_READ = """
import torch

CFG = {"rows": 4, "width": 3}


def table(cfg):
    return torch.randn(cfg["rows"], cfg["width"])


def main():
    t = table(CFG)
    counts = torch.bincount(torch.tensor([0, 1]) * CFG["width"], minlength=12)
    return t.gather(1, torch.zeros(5, 1, dtype=torch.long)), counts


if __name__ == "__main__":
    main()
"""


def test_a_keyword_argument_after_a_read_binds_nothing(torch):
    """`f(CFG["width"], minlength=12)` reads CFG; the `=` is the keyword's. CFG stays bound once, and main()
    reads its sizes: an index of 5 rows for the 4-row table is GL003, as torch says."""
    assert codes(KEYWORD_READ) == ["GL003"]
    scope = {"__name__": "snippet"}
    exec(KEYWORD_READ, scope)  # noqa: S102 - the program under test
    with pytest.raises(RuntimeError, match="Size does not match"):
        scope["main"]()
    rebound = KEYWORD_READ.replace('CFG = {"rows": 4, "width": 3}\n', 'CFG = {"rows": 4, "width": 3}\nCFG = dict(CFG)\n')
    assert rebound != KEYWORD_READ
    assert codes(rebound) == []  # bound twice: main() cannot know which binding it reads
