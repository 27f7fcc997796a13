"""Facts from constructors and data paths, and writes that corrupt what they write into.

Every program runs in torch first (the oracle: it raises, or computes what the test says), then
through the linter: reported on the marked line (`# expect`), silent for the correct form.
"""
import textwrap

import pytest

from .conftest import codes, lint


def _run(program: str):
    scope: dict = {"__name__": "__main__"}
    exec(compile(program, "<program>", "exec"), scope)
    return scope


def _expected_lines(program: str):
    return [n for n, text in enumerate(program.splitlines(), 1) if text.rstrip().endswith("# expect")]


def _program(template: str, use: str = "") -> str:
    return textwrap.dedent(template).replace("{use}", use)


# -- torch.linspace is 1-d whatever its step count ---------------------------------------------------

LINSPACE_HELPER = """
import json

import torch

BINNING = '{"low": -1.0, "high": 1.0, "bins": 7}'


def bin_values(actions, cfg):
    centres = torch.linspace(cfg["low"], cfg["high"], cfg["bins"])
    table = centres.expand(actions.shape + centres.shape)
    return table.gather(-1, actions{use})  # expect


def run(cfg):
    picks = torch.randint(0, 7, (4,))
    return bin_values(picks, cfg)


if __name__ == "__main__":
    RESULT = run(json.loads(BINNING))
"""

LINSPACE_BUFFER = """
import torch
import torch.nn as nn

SETTINGS = {"lo": -1.0, "hi": 1.0, "levels": 5}


class Quantizer(nn.Module):
    def __init__(self, settings):
        super().__init__()
        self.levels = settings["levels"]
        self.register_buffer("centres", torch.linspace(settings["lo"], settings["hi"], steps=settings["levels"]))

    def forward(self, codes):
        table = torch.stack([self.centres] * len(codes))
        return torch.gather(table, 1, codes{use})  # expect


def decode_batch(quantizer, codes):
    return quantizer(codes)


def main():
    return decode_batch(Quantizer(SETTINGS), torch.randint(0, 5, (3,)))


if __name__ == "__main__":
    RESULT = main()
"""


@pytest.mark.parametrize("template", [LINSPACE_HELPER, LINSPACE_BUFFER], ids=["helper", "module-buffer"])
def test_a_one_d_code_gathered_from_an_expanded_linspace_table(template, torch):
    bad, good = _program(template), _program(template, ".unsqueeze(-1)")
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        _run(bad)
    assert _run(good)["RESULT"].shape[-1] == 1
    assert [(f.code, f.line) for f in lint(bad)] == [("GL001", n) for n in _expected_lines(bad)]
    assert lint(good) == []


# -- the first pass of a loop sees the state made before it ------------------------------------------

GRID_METHOD = """
import torch


class ChargeGrid:
    def __init__(self, n_cells):
        self.n_cells = n_cells

    def deposit(self, charges, cell_of):
        grid = torch.zeros(self.n_cells{use})
        grid.index_add_(0, cell_of, charges)  # expect
        return grid


def relax(acc, charges, cell_of, steps):
    for _ in range(steps):
        grid = acc.deposit(charges, cell_of)
        charges = charges * 0.5 + grid[cell_of] * 0.1
    return charges


if __name__ == "__main__":
    charges = torch.rand(10, dtype=torch.float64)
    cell_of = torch.randint(0, 4, (10,))
    RESULT = relax(ChargeGrid(4), charges, cell_of, 3)
"""

ENERGY_STEP = '''
import torch


def segment_energy(x, v, seg, n_seg):
    """Kinetic energy per segment.

    Args:
        x (Tensor): (n, 2) positions.
        v (Tensor): (n, 2) velocities.
        seg (LongTensor): (n,) segment of every point.
    """
    per_point = 0.5 * (v ** 2).sum(-1)
    energy = torch.zeros(n_seg{use})
    energy.scatter_add_(0, seg, per_point)  # expect
    return energy


def step(x, v, seg, n_seg, dt=0.01):
    e = segment_energy(x, v, seg, n_seg)
    v = v * (1.0 - dt * e[seg].unsqueeze(1))
    return x + dt * v, v


x = torch.randn(6, 2).double()
v = torch.randn(6, 2).double()
seg = torch.tensor([0, 0, 1, 1, 2, 2])
for it in range(5):
    x, v = step(x, v, seg, 3)
RESULT = x
'''


@pytest.mark.parametrize("template", [GRID_METHOD, ENERGY_STEP], ids=["method-in-a-helper-loop", "script-step-loop"])
def test_a_float64_state_met_by_a_float32_buffer_on_the_first_step(template, torch):
    bad = _program(template)
    good = _program(template, ", dtype=torch.float64")
    with pytest.raises(RuntimeError, match="same scalar type|self.dtype to be equal to src.dtype"):
        _run(bad)
    assert _run(good)["RESULT"].dtype == torch.float64
    assert [(f.code, f.line) for f in lint(bad)] == [("GL016", n) for n in _expected_lines(bad)]
    assert lint(good) == []


def test_a_float32_state_in_the_same_loop_is_silent(torch):
    same = _program(GRID_METHOD).replace("dtype=torch.float64", "dtype=torch.float32")
    assert _run(same)["RESULT"].dtype == torch.float32
    assert lint(same) == []


# -- GL025: a per-class table replaced by this call's per-sample picks --------------------------------

MARGIN_SUBSCRIPT = """
import torch
import torch.nn as nn


class MarginLoss(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.margins = torch.linspace(0.1, 0.5, n_classes)

    def forward(self, scores, y):
        {write}[y]  # expect
        true = scores.gather(1, y[:, None]).squeeze(1)
        return (margins - true).clamp(min=0).mean()
"""

PRIOR_INDEX_SELECT = """
import torch
import torch.nn as nn


class PriorCorrectedNLL(nn.Module):
    def __init__(self, priors):
        super().__init__()
        self.register_buffer("log_prior", torch.log(torch.tensor(priors)))

    def forward(self, logp, target):
        flat = target.reshape(-1)
        {write}.index_select(0, flat)  # expect
        return -(logp.gather(1, flat.unsqueeze(1)).squeeze(1) - log_prior).mean()
"""

TEMPERATURE_FUNCTION = """
import torch
import torch.nn as nn


class ClassTemperature(nn.Module):
    def __init__(self, temps):
        super().__init__()
        self.temps = torch.tensor(temps)

    def scale(self, logits, labels):
        self.temps = self.temps.to(logits.device)
        {write} = torch.gather(self.temps, 0, labels)  # expect
        return logits / temps.unsqueeze(1)
"""


def _gl025_program(template: str, attribute: str, bad: bool) -> str:
    local = attribute.split(".")[-1]
    write = f"self.{attribute} = self.{attribute}" if bad else f"{local} = self.{attribute}"
    if template is TEMPERATURE_FUNCTION:
        write = f"self.{attribute}" if bad else local
    program = _program(template).replace("{write}", write)
    if bad:  # the later reads in the method use the attribute the bad line rewrote
        program = program.replace(f"(margins ", "(self.margins ").replace("- log_prior)", "- self.log_prior)") \
            .replace("/ temps.", "/ self.temps.")
    return program


GL025_STYLES = [(MARGIN_SUBSCRIPT, "margins", "MarginLoss(4)", "scores, y"),
                (PRIOR_INDEX_SELECT, "log_prior", "PriorCorrectedNLL([0.1, 0.2, 0.3, 0.4])", "logp, target"),
                (TEMPERATURE_FUNCTION, "temps", "ClassTemperature([1.0, 2.0, 3.0, 4.0])", "logits, labels")]


@pytest.mark.parametrize("template,attribute,build,args", GL025_STYLES, ids=["subscript", "index-select", "torch-gather"])
def test_a_table_replaced_by_its_lookup_is_reported_and_torch_drifts(template, attribute, build, args, torch):
    bad, good = _gl025_program(template, attribute, True), _gl025_program(template, attribute, False)
    found = [(f.code, f.line) for f in lint(bad)]
    assert found == [("GL025", n) for n in _expected_lines(bad)], lint(bad)
    assert lint(good) == []
    method = "scale" if template is TEMPERATURE_FUNCTION else "__call__"
    results = []
    for program in (bad, good):
        scope = _run(program)
        module = eval(build, scope)
        torch.manual_seed(0)
        x = torch.log_softmax(torch.randn(4, 4), 1)
        getattr(module, method)(x, torch.tensor([1, 1, 0, 2]))  # the first call is right in both
        results.append(getattr(module, method)(x, torch.tensor([3, 2, 1, 0])))
    assert not torch.allclose(results[0], results[1])  # the bad module's second call read the first batch's picks


@pytest.mark.parametrize("code", [
    # beam search reorders its cache along the batch: same meaning, new order
    """
    import torch
    class Decoder(torch.nn.Module):
        def __init__(self, n, d):
            super().__init__()
            self.cache = torch.zeros(n, d)
        def reorder(self, beam_idx):
            self.cache = self.cache.index_select(0, beam_idx)
    """,
    # the table is rebuilt before each use
    """
    import torch
    class Loss(torch.nn.Module):
        def __init__(self, w):
            super().__init__()
            self.w = torch.tensor(w)
        def reset(self, w):
            self.w = torch.tensor(w)
        def forward(self, x, labels):
            self.w = self.w.gather(0, labels)
            return (self.w * x).mean()
    """,
    # a per-call buffer, not a table __init__ builds
    """
    import torch
    class Head(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.picked = None
        def forward(self, x, labels):
            self.picked = x.gather(1, labels.unsqueeze(1))
            self.picked = self.picked[labels]
            return self.picked
    """,
    # the picks are stored under another name
    """
    import torch
    class Loss(torch.nn.Module):
        def __init__(self, w):
            super().__init__()
            self.alpha = torch.tensor(w)
        def forward(self, x, targets):
            self.sample_alpha = self.alpha.gather(0, targets)
            return (self.sample_alpha * x).mean()
    """,
    # a one-off narrowing of the table to some classes, returning nothing
    """
    import torch
    class Head(torch.nn.Module):
        def __init__(self, n):
            super().__init__()
            self.class_bias = torch.zeros(n)
        def keep_classes(self, labels):
            self.class_bias = self.class_bias[labels]
    """,
    # token ids read from a vocabulary-sized table, stored per call by design of an incremental decoder
    """
    import torch
    class Bias(torch.nn.Module):
        def __init__(self, vocab):
            super().__init__()
            self.bias = torch.zeros(vocab)
        def forward(self, x, input_ids):
            self.bias = self.bias[input_ids]
            return x + self.bias
    """,
])
def test_near_misses_of_a_table_overwrite_stay_silent(code):
    assert [f.code for f in lint(textwrap.dedent(code))] == []


# -- batches of a DataLoader keep the dtype their dataset's items have ---------------------------------

MASK_DATASET = """
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Patches(Dataset):
    def __init__(self, images, thresholds):
        self.images = images
        self.thresholds = thresholds

    def __len__(self):
        return len(self.images)

    def __getitem__(self, k):
        img = self.images[k]
        mask = (img > self.thresholds[k]).astype({mask_dtype})
        return torch.from_numpy(img).float().unsqueeze(0), mask


def one_hot_masks(loader):
    for step, (x, m) in enumerate(loader):
        onehot = torch.zeros(x.shape[0], 2, 16, 16).scatter_(1, m.unsqueeze(1), 1.0)  # expect
    return onehot


if __name__ == "__main__":
    imgs = [np.random.rand(16, 16).astype(np.float32) for _ in range(6)]
    RESULT = one_hot_masks(DataLoader(Patches(imgs, [0.5] * 6), batch_size=3))
"""

DICT_ITEMS = """
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class Tiles:
    def __init__(self, label_maps):
        self.label_maps = label_maps

    def __len__(self):
        return len(self.label_maps)

    def __getitem__(self, index):
        return {"target": torch.from_numpy(self.label_maps[index]), "index": index}


class PixelNLL(nn.Module):
    def forward(self, log_probs, target):
        return -log_probs.gather(1, target[:, None]).mean()  # expect


if __name__ == "__main__":
    maps = [np.random.randint(0, 3, size=(5, 5)).astype({mask_dtype}) for _ in range(4)]
    loss_fn = PixelNLL()
    for batch in DataLoader(Tiles(maps), batch_size=2):
        RESULT = loss_fn(torch.randn(2, 3, 5, 5).log_softmax(1), batch["target"])
"""

TENSOR_DATASET = """
import torch
from torch.utils.data import DataLoader, TensorDataset


def fit(model, features, classes):
    loader = DataLoader(TensorDataset(features, classes{cast}), batch_size=8, shuffle=True)
    for xb, yb in loader:
        logp = model(xb).log_softmax(-1)
        picked = logp.gather(1, yb.unsqueeze(1))  # expect
    return picked


RESULT = fit(torch.nn.Linear(4, 3), torch.randn(20, 4), torch.randint(0, 3, (20,)))
"""


@pytest.mark.parametrize("template", [MASK_DATASET, DICT_ITEMS], ids=["tuple-items-enumerated", "dict-items"])
def test_a_uint8_label_map_batched_by_a_dataloader_reaches_the_index(template, torch):
    bad = _program(template).replace("{mask_dtype}", "np.uint8")
    good = _program(template).replace("{mask_dtype}", "np.int64")
    with pytest.raises(RuntimeError, match="Expected dtype int32/int64 for index"):
        _run(bad)
    _run(good)
    assert [(f.code, f.line) for f in lint(bad)] == [("GL008", n) for n in _expected_lines(bad)]
    assert "uint8" in lint(bad)[0].message
    assert lint(good) == []


def test_float_labels_of_a_tensor_dataset_reach_the_index(torch):
    bad = _program(TENSOR_DATASET).replace("{cast}", ".float()")
    good = _program(TENSOR_DATASET).replace("{cast}", "")
    with pytest.raises(RuntimeError, match="Expected dtype int32/int64 for index"):
        _run(bad)
    _run(good)
    assert [(f.code, f.line) for f in lint(bad)] == [("GL008", n) for n in _expected_lines(bad)]
    assert lint(good) == []


@pytest.mark.parametrize("loader", [
    "DataLoader(Tiles(maps), batch_size=2, collate_fn=lambda items: items)",  # its own collate
    "DataLoader(Tiles(maps), batch_size=None)",  # no batching
    "DataLoader(Tiles(maps), **options)",  # options that may set a collate
])
def test_loaders_whose_batches_are_not_default_collated_stay_unknown(loader):
    code = _program(DICT_ITEMS).replace("{mask_dtype}", "np.uint8").replace(
        "DataLoader(Tiles(maps), batch_size=2)", loader).replace("if __name__", "options = {}\nif __name__")
    assert lint(code) == []


# -- image readers give 8-bit arrays ------------------------------------------------------------------
# Neither OpenCV nor Pillow is needed to lint; to run the programs, a stand-in gives the arrays their
# documented dtypes (cv2.imread with 8-bit flags: uint8; PIL mode "L"/"P": uint8, "I": int32), and
# torch decides what such an index does.

PIL_MASKS = """
import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class SegFiles(Dataset):
    def __init__(self, mask_paths):
        self.mask_paths = mask_paths

    def __len__(self):
        return len(self.mask_paths)

    def __getitem__(self, i):
        mask = np.array(Image.open(self.mask_paths[i]).convert("{mode}"))
        return torch.from_numpy(mask)


def pixel_nll(logits, mask):
    return -F.log_softmax(logits, 1).gather(1, mask.unsqueeze(1)).mean()  # expect


if __name__ == "__main__":
    for masks in DataLoader(SegFiles(["a.png", "b.png"]), batch_size=2):
        RESULT = pixel_nll(torch.randn(2, 3, 4, 4), masks)
"""

CV2_LABELS = """
import cv2
import torch


def class_weights_of(path, weight_table):
    label = torch.from_numpy(cv2.imread(path, {flag}))
    return weight_table.index_select(0, label.flatten())  # expect


RESULT = class_weights_of("label.png", torch.rand(3))
"""


class _FakeImage:
    _DTYPES = {"L": "uint8", "P": "uint8", "I": "int32"}

    def __init__(self, mode="L"):
        self.mode = mode

    def convert(self, mode):
        return _FakeImage(mode)

    def __array__(self, dtype=None, copy=None):
        import numpy as np
        return np.random.randint(0, 3, size=(4, 4)).astype(self._DTYPES[self.mode])


@pytest.fixture
def image_readers(monkeypatch):
    import sys
    import types

    import numpy as np

    pil, image, cv2 = types.ModuleType("PIL"), types.ModuleType("PIL.Image"), types.ModuleType("cv2")
    image.open = lambda path: _FakeImage()
    pil.Image = image
    cv2.IMREAD_GRAYSCALE, cv2.IMREAD_UNCHANGED = 0, -1
    cv2.imread = lambda path, flags=1: np.random.randint(0, 3, size=(4, 4)).astype("uint8" if flags >= 0 else "int64")
    for name, module in (("PIL", pil), ("PIL.Image", image), ("cv2", cv2)):
        monkeypatch.setitem(sys.modules, name, module)


def test_a_mask_read_through_pil_in_l_mode_is_a_uint8_index(torch, image_readers):
    bad, good = _program(PIL_MASKS).replace("{mode}", "L"), _program(PIL_MASKS).replace("{mode}", "I")
    with pytest.raises(RuntimeError, match="Expected dtype int32/int64 for index"):
        _run(bad)
    _run(good)  # mode "I" reads int32, which gather takes
    assert [(f.code, f.line) for f in lint(bad)] == [("GL008", n) for n in _expected_lines(bad)]
    assert lint(good) == []
    unknown_mode = _program(PIL_MASKS).replace('.convert("{mode}")', "")
    assert lint(unknown_mode) == []  # the file's own mode is not in the code


def test_a_label_read_by_cv2_imread_is_a_uint8_index(torch, image_readers):
    bad, unchanged = (_program(CV2_LABELS).replace("{flag}", f) for f in ("cv2.IMREAD_GRAYSCALE", "cv2.IMREAD_UNCHANGED"))
    with pytest.raises(RuntimeError, match="Expected dtype int32 or int64 for index"):
        _run(bad)
    assert [(f.code, f.line) for f in lint(bad)] == [("GL008", n) for n in _expected_lines(bad)]
    assert lint(unchanged) == []  # a 16-bit file keeps its depth: not certainly uint8


ONE_BATCH_SPELLINGS = """
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset
from tqdm import tqdm


class LabelMaps(Dataset):
    def __init__(self, maps):
        self.maps = maps

    def __len__(self):
        return len(self.maps)

    def __getitem__(self, i):
        return torch.from_numpy(self.maps[i]){cast}


def first_batch(loader, logp):
    batch = next(iter(loader))
    return logp.gather(1, batch)  # expect


def with_progress(loader, logp):
    for batch in tqdm(loader, desc="eval"):
        out = logp.gather(1, batch)  # expect
    return out


def one_item(dataset, table):
    return table.gather(0, dataset[1])  # expect


if __name__ == "__main__":
    maps = [np.random.randint(0, 4, size=(4, 4)).astype(np.uint8) for _ in range(3)]
    dataset = LabelMaps(maps)
    loader = DataLoader(dataset, batch_size=2)
    RESULT = []
    try:
        RESULT.append(first_batch(loader, torch.randn(2, 4, 4)))
    except RuntimeError as exc:
        RESULT.append(exc)
    try:
        RESULT.append(with_progress(loader, torch.randn(2, 4, 4)))
    except RuntimeError as exc:
        RESULT.append(exc)
    try:
        RESULT.append(one_item(dataset, torch.randn(4, 4)))
    except RuntimeError as exc:
        RESULT.append(exc)
"""


def test_one_batch_a_progress_bar_and_one_item_keep_the_items_dtype(torch, monkeypatch):
    import sys
    import types

    progress = types.ModuleType("tqdm")
    progress.tqdm = lambda iterable, **options: iterable  # yields what it wraps, as tqdm does
    monkeypatch.setitem(sys.modules, "tqdm", progress)
    bad, good = _program(ONE_BATCH_SPELLINGS).replace("{cast}", ""), _program(ONE_BATCH_SPELLINGS).replace("{cast}", ".long()")
    assert all(isinstance(r, RuntimeError) and "int32/int64 for index" in str(r) for r in _run(bad)["RESULT"])
    assert not any(isinstance(r, Exception) for r in _run(good)["RESULT"])
    assert [(f.code, f.line) for f in lint(bad)] == [("GL008", n) for n in _expected_lines(bad)]
    assert lint(good) == []


# -- a true division of ints is a Python float, and torch.tensor makes float32 of it -------------------

HALF_SIZE_HELPER = """
import torch


def center_rows(feats, n_rows: int):
    mid = n_rows {op} 2
    picks = torch.tensor([mid, mid - 1])
    return feats.index_select(0, picks)  # expect


RESULT = center_rows(torch.randn(6, 3), 6)
"""

HALF_LENGTH_SUBSCRIPT = """
import torch


class MiddleToken(torch.nn.Module):
    def forward(self, states):
        # states: [T, D]
        T = states.size(0)
        middle = torch.tensor([T {op} 2])
        return states[middle]  # expect


if __name__ == "__main__":
    RESULT = MiddleToken()(torch.randn(5, 4))
"""


@pytest.mark.parametrize("template", [HALF_SIZE_HELPER, HALF_LENGTH_SUBSCRIPT], ids=["index-select", "subscript"])
def test_a_true_division_of_sizes_makes_a_float_index(template, torch):
    bad, good = _program(template).replace("{op}", "/"), _program(template).replace("{op}", "//")
    with pytest.raises((RuntimeError, IndexError), match="int32 or int64|must be long"):
        _run(bad)
    _run(good)
    assert [(f.code, f.line) for f in lint(bad)] == [("GL008", n) for n in _expected_lines(bad)]
    assert lint(good) == []


# -- a collate function of the file runs on a list of items ---------------------------------------------

OWN_COLLATE = """
import torch
from torch.utils.data import DataLoader, Dataset


class Windows(Dataset):
    def __init__(self, docs, width: int):
        self.docs = docs
        self.width = width

    def __len__(self):
        return len(self.docs)

    def __getitem__(self, i):
        return {"tokens": self.docs[i], "center": self.width {op} 2}


def stack_windows(items):
    tokens = torch.stack([it["tokens"] for it in items])
    centers = torch.tensor([it["center"] for it in items])
    return tokens, centers


def center_states(loader, states):
    for tokens, centers in loader:
        picked = states.index_select(0, centers)  # expect
    return picked


if __name__ == "__main__":
    docs = [torch.randint(0, 10, (6,)) for _ in range(4)]
    loader = DataLoader(Windows(docs, 6), batch_size=2, collate_fn=stack_windows)
    RESULT = center_states(loader, torch.randn(6, 3))
"""


def test_float_positions_made_in_items_and_stacked_by_the_files_collate(torch):
    bad, good = _program(OWN_COLLATE).replace("{op}", "/"), _program(OWN_COLLATE).replace("{op}", "//")
    with pytest.raises(RuntimeError, match="int32 or int64 for index"):
        _run(bad)
    _run(good)
    assert [(f.code, f.line) for f in lint(bad)] == [("GL008", n) for n in _expected_lines(bad)]
    assert lint(good) == []
    through_lambda = bad.replace("collate_fn=stack_windows", "collate_fn=lambda items: stack_windows(items)")
    assert [f.code for f in lint(through_lambda)] == ["GL008"]  # the lambda calls the file's collate with the batch


SPLIT_DATASET = """
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, Subset, random_split


class Tiles(Dataset):
    def __init__(self, maps):
        self.maps = maps

    def __len__(self):
        return len(self.maps)

    def __getitem__(self, i):
        return torch.from_numpy(self.maps[i])


def evaluate(loader, logp):
    for m in loader:
        out = logp.gather(1, m)  # expect
    return out


if __name__ == "__main__":
    tiles = Tiles([np.random.randint(0, 4, size=(4, 4)).astype({dtype}) for _ in range(6)])
    train_part, val_part = random_split(tiles, [4, 2])
    evaluate(DataLoader({part}, batch_size=2), torch.randn(2, 4, 4))
"""


@pytest.mark.parametrize("part", ["val_part", "Subset(tiles, [0, 1])"], ids=["random-split", "subset"])
def test_parts_of_a_dataset_have_its_items(part, torch):
    bad = _program(SPLIT_DATASET).replace("{dtype}", "np.uint8").replace("{part}", part)
    good = _program(SPLIT_DATASET).replace("{dtype}", "np.int64").replace("{part}", part)
    with pytest.raises(RuntimeError, match="int32/int64 for index"):
        _run(bad)
    _run(good)
    assert [(f.code, f.line) for f in lint(bad)] == [("GL008", n) for n in _expected_lines(bad)]
    assert lint(good) == []


def test_a_while_loop_threading_the_state_checks_its_first_step_too(torch):
    as_while = "it = 0\nwhile it < 5:\n    it += 1"
    bad = _program(ENERGY_STEP).replace("for it in range(5):", as_while)
    good = _program(ENERGY_STEP, ", dtype=torch.float64").replace("for it in range(5):", as_while)
    with pytest.raises(RuntimeError, match="self.dtype to be equal to src.dtype"):
        _run(bad)
    assert _run(good)["RESULT"].dtype == torch.float64
    assert [(f.code, f.line) for f in lint(bad)] == [("GL016", n) for n in _expected_lines(bad)]
    assert lint(good) == []


# a dataset whose items are made with the legacy constructor torch.Tensor(list): float32 whatever the list holds
LEGACY_ITEMS = """
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

class Captions(Dataset):
    def __init__(self, captions):
        self.captions = captions

    def __len__(self):
        return len(self.captions)

    def __getitem__(self, i):
        return torch.{MAKER}(self.captions[i])

def encode(embed, loader):
    return torch.cat([embed(ids).mean(1) for ids in loader])

if __name__ == "__main__":
    loader = DataLoader(Captions([[5, 9, 2], [7, 7, 3]]), batch_size=2)
    out = encode(nn.Embedding(16, 4), loader)
"""


def test_torch_tensor_of_a_datasets_list_is_float_and_raises_at_a_lookup(torch):
    from .snippets import run_snippet
    code = LEGACY_ITEMS.replace("{MAKER}", "Tensor")
    with pytest.raises(RuntimeError, match="Expected tensor for argument #1 'indices'"):
        run_snippet(code)
    assert codes(code) == ["GL008"]
    fixed = LEGACY_ITEMS.replace("{MAKER}", "LongTensor")
    assert run_snippet(fixed)["out"].shape == (2, 4)
    assert codes(fixed) == []


# image placeholder ids made as ones * id (float32) joined with int64 text ids: torch.cat promotes to float
PROMOTED_PROMPT = """
import torch
from torch import nn

def build(text_ids, n_img, image_id):
    slots = torch.ones(text_ids.size(0), n_img){CAST} * image_id
    return torch.cat([slots, text_ids], dim=1)

if __name__ == "__main__":
    table = nn.Embedding(40, 4)
    ids = build(torch.randint(5, 40, (2, 7)), 3, 3)
    out = table.weight.index_select(0, ids.reshape(-1))
"""


def test_cat_promotes_float_placeholders_and_int_ids_to_float(torch):
    from .snippets import run_snippet
    code = PROMOTED_PROMPT.replace("{CAST}", "")
    with pytest.raises(RuntimeError, match="index_select"):
        run_snippet(code)
    assert codes(code) == ["GL008"]
    fixed = PROMOTED_PROMPT.replace("{CAST}", ".long()")
    assert run_snippet(fixed)["out"].shape == (20, 4)
    assert codes(fixed) == []


# a collate function given to the loader through a lambda that passes the padding id
LAMBDA_COLLATE = """
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

def pad_collate(samples, pad_id):
    width = max(len(s) for s in samples)
    labels = torch.zeros(len(samples), width{DTYPE})
    labels.fill_(pad_id)
    for row, s in enumerate(samples):
        labels[row, :len(s)] = torch.tensor(s)
    return labels

def embed_all(table, loader):
    return [F.embedding(labels, table) for labels in loader]

if __name__ == "__main__":
    loader = DataLoader([[3, 4, 1], [5, 1]], batch_size=2, collate_fn=lambda b: pad_collate(b, 0))
    out = embed_all(torch.randn(8, 4), loader)
"""


def test_a_collate_through_a_lambda_brings_its_float_buffer(torch):
    from .snippets import run_snippet
    code = LAMBDA_COLLATE.replace("{DTYPE}", "")
    with pytest.raises(RuntimeError, match="Expected tensor for argument #1 'indices'"):
        run_snippet(code)
    assert codes(code) == ["GL008"]
    fixed = LAMBDA_COLLATE.replace("{DTYPE}", ", dtype=torch.long")
    assert run_snippet(fixed)["out"][0].shape == (2, 3, 4)
    assert codes(fixed) == []
