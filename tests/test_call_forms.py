"""The form of the code does not decide a finding: a helper called through its class (`Ops.f(x)` of a
@staticmethod, `cls.f(x)` of a @classmethod, `self.f(x)` or `obj.f(x)` of a @staticmethod), a driver run at
module level without the `__main__` guard, and torch imported under another name (`import torch as T`)
give the finding the plain form gives; the correct form of each stays silent. Every claim about torch is
checked by running the code."""
import contextlib
import io
import textwrap

import pytest

from gather_lint.api import lint_text
from gather_lint.static import script_drivers, torch_aliases

RANK = "Index tensor must have the same number of dimensions as input tensor"


def codes(text: str) -> list:
    return sorted((f.code, f.line) for f in lint_text(text, "forms.py").findings)


def run_as_script(text: str) -> str:
    """What `python forms.py` prints."""
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(text, "forms.py", "exec"), {"__name__": "__main__"})
    return out.getvalue()


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# ----- calls through a class ---------------------------------------------------------------------------

OPS = '''import torch


class Ops:
    @staticmethod
    def pick(logits, actions):
        return logits.gather(1, actions)

    @classmethod
    def pick_through_cls(cls, logits, actions):
        return cls.pick(logits, actions)

    def pick_through_self(self, logits, actions):
        return self.pick(logits, actions)


if __name__ == "__main__":
    logits = torch.randn(8, 4)
    actions = torch.randint(0, 4, (8,))
    print(CALL.shape)
'''

CALLS = ["Ops.pick(logits, actions)", "Ops.pick_through_cls(logits, actions)",
         "Ops().pick_through_self(logits, actions)", "Ops().pick(logits, actions)"]


@pytest.mark.parametrize("call", CALLS)
def test_a_static_method_called_through_its_class_gets_the_callers_facts(call):
    program = OPS.replace("CALL", call)
    with pytest.raises(RuntimeError, match=RANK):
        run_as_script(program)
    assert codes(program) == [("GL001", line_of(program, ".gather(1, actions)"))]


@pytest.mark.parametrize("call", CALLS)
def test_the_correct_index_through_the_class_stays_silent(call):
    program = OPS.replace("CALL", call.replace("(logits, actions)", "(logits, actions.unsqueeze(1))"))
    assert run_as_script(program).strip() == "torch.Size([8, 1])"
    assert codes(program) == []


def test_a_static_method_called_from_another_function_through_its_class():
    program = textwrap.dedent('''\
        import torch


        class Ops:
            @staticmethod
            def pick(logits, actions):
                return logits.gather(1, actions)


        def run():
            logits = torch.randn(8, 4)
            actions = torch.randint(0, 4, (8,))
            return Ops.pick(logits, actions)


        if __name__ == "__main__":
            print(run().shape)
        ''')
    with pytest.raises(RuntimeError, match=RANK):
        run_as_script(program)
    assert codes(program) == [("GL001", 7)]


def test_a_library_function_calling_a_static_method_through_its_class_is_its_caller():
    """No driver: the function that builds the tensors is analysed on its own, and its call reaches the method."""
    library = textwrap.dedent('''\
        import torch


        class Ops:
            @staticmethod
            def pick(logits, actions):
                return logits.gather(1, actions)


        def unrelated(x):
            return x + 1


        def sample_and_pick():
            logits = torch.randn(8, 4)
            actions = torch.randint(0, 4, (8,))
            return Ops.pick(logits, ACTIONS)
        ''')
    program = library.replace("ACTIONS", "actions")
    with pytest.raises(RuntimeError, match=RANK):
        run_as_script(program + "\n\nsample_and_pick()\n")
    assert codes(program) == [("GL001", 7)]
    right = library.replace("ACTIONS", "actions.unsqueeze(1)")
    run_as_script(right + "\n\nassert sample_and_pick().shape == (8, 1)\n")
    assert codes(right) == []


def test_a_name_bound_to_something_else_is_not_the_class():
    """`Ops = Other` rebinds the name: a call through it is not the class's method (no finding from it)."""
    program = OPS.replace("CALL", "Ops.pick(logits, actions)").replace(
        "if __name__", "class Other:\n    @staticmethod\n    def pick(logits, actions):\n"
        "        return logits.gather(1, actions.unsqueeze(1))\n\n\nOps = Other\n\n\nif __name__")
    assert run_as_script(program).strip() == "torch.Size([8, 1])"
    assert codes(program) == []


# ----- a driver at module level ------------------------------------------------------------------------

MODEL = '''import torch


class Picker(torch.nn.Module):
    def __init__(self, n_actions):
        super().__init__()
        self.head = torch.nn.Linear(16, n_actions)

    def forward(self, feats, actions):
        return self.head(feats).gather(1, actions)


def double(x):
    return x * 2


'''

DRIVER = '''model = Picker(4)
feats = double(torch.randn(8, 16))
actions = torch.randint(0, 4, (8,))
print(model(feats, ACTIONS).shape)
'''


def guarded(driver: str) -> str:
    return 'if __name__ == "__main__":\n' + textwrap.indent(driver, "    ")


@pytest.mark.parametrize("form", [lambda d: d, guarded], ids=["unguarded", "guarded"])
def test_a_driver_at_module_level_is_a_caller_like_a_main_block(form):
    program = MODEL + form(DRIVER.replace("ACTIONS", "actions"))
    with pytest.raises(RuntimeError, match=RANK):
        run_as_script(program)
    assert codes(program) == [("GL001", line_of(program, ".gather(1, actions)"))]


@pytest.mark.parametrize("form", [lambda d: d, guarded], ids=["unguarded", "guarded"])
def test_a_module_level_driver_with_the_correct_index_stays_silent(form):
    program = MODEL + form(DRIVER.replace("ACTIONS", "actions.unsqueeze(1)"))
    assert run_as_script(program).strip() == "torch.Size([8, 1])"
    assert codes(program) == []


def test_what_makes_a_script():
    assert script_drivers.is_script(MODEL + DRIVER)
    assert script_drivers.is_script(MODEL + guarded(DRIVER))
    # a library's module-level statements call no function or class of its own
    assert not script_drivers.is_script(MODEL + "import logging\nlog = logging.getLogger(__name__)\n")
    assert not script_drivers.is_script(MODEL + "    # model = Picker(4)\n\"\"\"x = double(3)\"\"\"\n")


# ----- torch under another name ------------------------------------------------------------------------

def test_an_alias_of_torch_reads_as_torch_unless_the_file_rebinds_it():
    assert torch_aliases.of("import torch as T\nx = T.arange(3)\n") == {"T"}
    assert torch_aliases.of("import torch as th\ndef f(ids, d=th.long):\n    pass\n") == {"th"}
    assert torch_aliases.of("import torch as T\nB, T = x.shape\n") == frozenset()  # T is a length here
    assert torch_aliases.of("import torch as th\ndef f(x, th):\n    pass\n") == frozenset()
    assert torch_aliases.of("import torch\nx = y.T\n") == frozenset()


ONE_HOT = '''import torch as ALIAS
import torch.nn.functional as F


def td_loss(q_values, actions, target_q, n_actions):
    # q_values: [B, A], actions: [B], target_q: [B]
    chosen = F.one_hot(actions, n_actions).float()  # [B, A]
    q = ALIAS.sum(q_values * chosen SUM_DIM)  # Q(s, a) of the action taken
    return ALIAS.mean((target_q - q) ** 2), q


if __name__ == "__main__":
    ALIAS.manual_seed(0)
    q_values = ALIAS.randn(16, 3)  # [B, A]
    actions = ALIAS.randint(0, 3, (16,))  # [B]
    target_q = ALIAS.randn(16)  # [B]
    loss, q = td_loss(q_values, actions, target_q, 3)
    reference = ((target_q - q_values[ALIAS.arange(16), actions]) ** 2).mean()
    print(tuple(q.shape), bool(ALIAS.allclose(loss, reference)))
'''


@pytest.mark.parametrize("alias", ["torch", "T", "th"])
def test_a_dimless_one_hot_sum_is_found_whatever_torch_is_imported_as(alias):
    """GL020 reads `torch.sum(...)` by its spelling; `T.sum(...)` of `import torch as T` is the same call."""
    program = ONE_HOT.replace("ALIAS", alias).replace(" SUM_DIM", "")
    assert run_as_script(program).strip() == "() False"  # one number for the batch: silently wrong
    assert [code for code, _ in codes(program)] == ["GL020"]
    assert codes(program)[0][1] == line_of(program, "* chosen")


@pytest.mark.parametrize("alias", ["torch", "T", "th"])
def test_the_per_row_one_hot_sum_stays_silent_whatever_torch_is_imported_as(alias):
    program = ONE_HOT.replace("ALIAS", alias).replace(" SUM_DIM", ", dim=1")
    assert run_as_script(program).strip() == "(16,) True"
    assert codes(program) == []


JOINED = '''import torch as ALIAS
import torch.nn.functional as F


def log_probs_from_logits(logits, labels):
    logp = F.log_softmax(logits, dim=-1)
    return ALIAS.gather(logp, 2, labels.unsqueeze(2)).squeeze(-1)


def sequence_logprob(logits, labels, input_len=0):
    log_probs = log_probs_from_logits(logits[:, :-1, :], labels[:, 1:])
    return ALIAS.sum(log_probs[:, START:])


if __name__ == "__main__":
    ALIAS.manual_seed(0)
    prompt = ALIAS.randint(0, 10, (1, 4))
    completion = ALIAS.randint(0, 10, (1, 3))
    output = ALIAS.cat([prompt, completion], dim=1)
    logits = ALIAS.randn(1, 7, 10)
    total = sequence_logprob(logits, output, input_len=prompt.size(1))
    logp = F.log_softmax(logits, dim=-1)
    reference = sum(logp[0, t - 1, output[0, t]] for t in range(4, 7))
    print(bool(ALIAS.allclose(total, reference)))
'''


@pytest.mark.parametrize("alias", ["torch", "T", "th"])
def test_a_joined_prompt_and_completion_is_read_through_an_alias(alias):
    """After the shift the continuation's scores start one before the prompt's length; the check reads
    the join `torch.cat([prompt, completion], dim=1)` by its spelling, and `T.cat(...)` is the same call."""
    program = JOINED.replace("ALIAS", alias).replace("START", "input_len")
    assert run_as_script(program).strip() == "False"  # the completion's first token left out, silently
    assert codes(program) == [("GL007", line_of(program, "log_probs[:, input_len:]"))]
    right = JOINED.replace("ALIAS", alias).replace("START", "input_len - 1")
    assert run_as_script(right).strip() == "True"
    assert codes(right) == []


# ----- real cases, their faulty function made a @staticmethod -------------------------------------------

STATIC_CASES = ["115_prompt_logprobs_same_position_logits",  # GL007: a per-token pass reads `Ops.f(...)` as f
                "134_control_cells_float_index_array",  # GL008: the method's float array flows back to its caller
                "309_ddim_bf16_timestep_rounds_past_alphas"]  # GL011: a class method block kept for its caller


@pytest.mark.parametrize("name", STATIC_CASES)
def test_a_real_case_keeps_its_finding_when_its_function_becomes_a_static_method(name):
    import os
    import tomllib

    from .benchmark_scripts import load
    from .bug_sets import PROJECT
    forms, rewrites = load("rewrite_forms"), load("rewrites")
    home = os.path.join(PROJECT, "cases", name)
    with open(os.path.join(home, "meta.toml"), "rb") as handle:
        lines = rewrites.case_lines(tomllib.load(handle))
    texts = {}
    for program in ("bug.py", "fixed.py"):
        with open(os.path.join(home, program), encoding="utf-8") as handle:
            texts[program] = handle.read()
    found = {f.code for f in lint_text(texts["bug.py"], "bug.py").findings if f.line in lines}
    assert found
    rewritten = forms.static_method(texts["bug.py"], lines)
    assert "@staticmethod" in rewritten.text
    kept = {f.code for f in lint_text(rewritten.text, "bug.py").findings if f.line in set(rewritten.lines.values())}
    assert found <= kept
    # the rewrite does what the original does in torch: the bug behaves alike, the fix still prints ok
    assert rewrites.run_program(rewritten.text, home, "bug.py") == rewrites.run_program(texts["bug.py"], home, "bug.py")
    fixed = forms.static_method(texts["fixed.py"], lines)
    if fixed is not None:
        assert rewrites.run_program(fixed.text, home, "fixed.py") == "ok"
        assert lint_text(fixed.text, "fixed.py").findings == []


AXIS_SPELLING = """
import torch

def pick(table, scores):
    # table: [V, K], scores: [V, K]
    picks = {ARGMAX}
    return torch.index_select(table, 1, picks)
"""


@pytest.mark.parametrize("argmax", ["torch.argmax(scores, axis=1)", "scores.argmax(axis=1)", "torch.argmax(scores, dim=1)",
                                    "scores.argmax(dim=1)"])
def test_numpys_axis_keyword_is_torchs_dim(torch, argmax):
    """torch takes `axis=` for `dim=`: argmax over dim 1 gives one pick per row, and index_select along dim 1
    with V picks reads every row at every pick ([V, V])."""
    code = AXIS_SPELLING.replace("{ARGMAX}", argmax)
    assert [f.code for f in lint_text(textwrap.dedent(code), "pick.py").findings] == ["GL017"]
    scores, table = torch.randn(5, 3), torch.arange(15).view(5, 3)
    picks = eval(argmax, {"torch": torch, "scores": scores})  # noqa: S307 - the spelling under test
    assert torch.equal(picks, scores.argmax(dim=1))
    assert tuple(torch.index_select(table, 1, picks).shape) == (5, 5)


DTYPE_DEFAULT = """
import torch

def prepare(batch, dtype={DTYPE}):
    return {k: v.to(dtype) for k, v in batch.items()}

def pick(logits, labels):
    return logits.log_softmax(-1).gather(-1, labels.long().unsqueeze(-1)).squeeze(-1)

def step(logits, batch):
    inputs = prepare(batch)
    return pick(logits, inputs["labels"])

if __name__ == "__main__":
    vocab = 32000
    print(step(torch.randn(2, 6, vocab), {"labels": torch.randint(0, vocab, (2, 6))}))
"""


@pytest.mark.parametrize("dtype, fires", [("torch.float16", True), ("torch.float32", False)])
def test_a_dtype_default_left_out_is_the_dtype_the_call_casts_to(torch, dtype, fires):
    """`prepare(batch)` casts with its default dtype: float16 ids above 2048 round, 31999 to 32000, one past a
    32000-entry vocabulary; float32 holds every id below 2**24 exactly."""
    code = DTYPE_DEFAULT.replace("{DTYPE}", dtype)
    assert ("GL011" in [f.code for f in lint_text(textwrap.dedent(code), "step.py").findings]) == fires
    assert torch.tensor(31999).to(torch.float16).long().item() == 32000
    assert torch.tensor(31999).to(torch.float32).long().item() == 31999
