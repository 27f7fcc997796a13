"""Ids narrowed to a small integer type wrap around past its top: a label map kept as uint8 turns class 299
into 43. GL015 reports it where the indexed dim holds more positions than the type; torch shows the wrap."""
from .conftest import codes, lint
from .snippets import call_run

LABELS = """
import torch
import torch.nn.functional as F

def pixel_nll(logits, sem_seg):
    logp = F.log_softmax(logits, dim=1)
    return logp.gather(1, sem_seg.long().unsqueeze(1))

def run():
    num_classes = 300
    labels = torch.randint(0, num_classes, (2, 4, 4))
    stored = labels.to(torch.uint8)
    logits = torch.randn(2, num_classes, 4, 4)
    return labels, pixel_nll(logits, stored), F.log_softmax(logits, dim=1).gather(1, labels.unsqueeze(1))
"""


def test_labels_kept_as_uint8_wrap_around(torch):
    torch.manual_seed(0)
    labels, picked, meant = call_run(LABELS)
    assert (labels > 255).any() and not torch.equal(picked, meant)  # the wrapped classes read other scores
    found = lint(LABELS)
    assert [f.code for f in found] == ["GL015"]
    assert "uint8" in found[0].message and "wrapped around" in found[0].message


def test_a_type_that_holds_every_class_is_silent(torch):
    wide = LABELS.replace("torch.uint8", "torch.int16")
    torch.manual_seed(0)
    labels, picked, meant = call_run(wide)
    assert torch.equal(picked, meant)
    assert codes(wide) == []
    fits = LABELS.replace("num_classes = 300", "num_classes = 256")
    torch.manual_seed(0)
    labels, picked, meant = call_run(fits)
    assert torch.equal(picked, meant)  # ids 0..255 all fit in uint8
    assert codes(fits) == []


DATASET = """
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class SemSegDataset(Dataset):
    def __init__(self, images, label_maps):
        self.images = images
        self.label_maps = label_maps

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        sem_seg = torch.as_tensor(self.label_maps[i]).to(torch.uint8)  # compact 8-bit maps, as the PNGs
        return {"image": self.images[i], "sem_seg": sem_seg}


def pixel_logp(logits, sem_seg):
    return F.log_softmax(logits, dim=1).gather(1, sem_seg.long().unsqueeze(1))


def run():
    num_classes = 300
    images = [torch.randn(3, 4, 4) for _ in range(2)]
    label_maps = [torch.randint(0, num_classes, (4, 4)) for _ in range(2)]
    batch = next(iter(DataLoader(SemSegDataset(images, label_maps), batch_size=2)))
    head = torch.nn.Conv2d(3, num_classes, kernel_size=1)
    pixel_logp(head(batch["image"]), batch["sem_seg"])
    return torch.stack(label_maps), batch["sem_seg"]
"""


def test_a_dataset_item_made_with_as_tensor_keeps_its_values(torch):
    # torch.as_tensor of a tensor is that tensor: the labels' range reaches the uint8 cast
    torch.manual_seed(0)
    labels, stored = call_run(DATASET)
    assert (labels > 255).any() and not torch.equal(stored.long(), labels)
    assert codes(DATASET) == ["GL015"]
    assert codes(DATASET.replace("torch.as_tensor(self.label_maps[i])", "self.label_maps[i]")) == ["GL015"]


def test_ids_kept_through_numpy_and_narrowed_there_wrap_around(torch):
    # t.numpy() and torch.from_numpy keep the values; astype(np.uint8) narrows them as .to(torch.uint8) does
    code = """
    import numpy as np
    import torch

    def run():
        ids = torch.randint(0, 300, (2, 4, 4))
        stored = ids.numpy().astype(np.uint8)
        back = torch.from_numpy(stored).long()
        logp = torch.randn(2, 300, 4, 4)
        return logp.gather(1, back.unsqueeze(1)), logp.gather(1, ids.unsqueeze(1)), ids
    """
    torch.manual_seed(0)
    picked, meant, ids = call_run(code)
    assert (ids > 255).any() and not torch.equal(picked, meant)
    assert codes(code) == ["GL015"]
    assert codes(code.replace("astype(np.uint8)", "astype(np.int16)")) == []


def test_a_widening_cast_keeps_the_wrap_around_a_narrower_one_made(torch):
    code = """
    import numpy as np
    import torch

    def run():
        ids = torch.randint(0, 70000, (2, 5))
        stored = ids.numpy().astype(np.uint16)
        back = torch.from_numpy(stored.astype(np.int64))
        table = torch.nn.Embedding(70000, 4)
        return table(back), table(ids), ids

    if __name__ == "__main__":
        run()
    """
    torch.manual_seed(0)
    got, meant, ids = call_run(code)
    assert (ids > 65535).any() and not torch.equal(got, meant)
    assert codes(code) == ["GL015"]
