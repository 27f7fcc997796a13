import numpy as np
import torch


def convert_to_tensor(x, dtype=None):
    if isinstance(x, torch.Tensor):
        return x if dtype is None else x.to(dtype)
    return torch.as_tensor(np.asarray(x), dtype=dtype)


def take(x, indices, axis=None):
    x = convert_to_tensor(x)
    indices = convert_to_tensor(indices).long()
    if x.ndim == 2 and (axis is None or axis == 0):
        # equivalent to an embedding lookup
        return torch.nn.functional.embedding(indices, x)
    if axis is not None:
        return torch.index_select(x, dim=axis, index=indices).squeeze(axis)
    return torch.take(x, index=indices)


def gather_candidate_scores(config, scores, candidates):
    picked = take(scores, candidates, axis=config["item_axis"])
    if config["normalize"]:
        picked = picked - picked.mean(dim=-1, keepdim=True)
    return picked


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    config = {"item_axis": 1, "normalize": False}
    scores = rng.standard_normal((4, 50)).astype("float32")
    candidates = rng.integers(0, 50, size=(3, 5))
    out = gather_candidate_scores(config, scores, candidates)
    print("picked:", tuple(out.shape))
