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
        axis = x.ndim + axis if axis < 0 else axis
        shape = x.shape[:axis] + indices.shape + x.shape[axis + 1:]
        out = torch.index_select(x, dim=axis, index=indices.reshape(-1))
        return out.reshape(shape)
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
    ref = np.empty((4, 3, 5), dtype="float32")
    for b in range(4):
        for i in range(3):
            for j in range(5):
                ref[b, i, j] = scores[b, candidates[i, j]]
    assert tuple(out.shape) == (4, 3, 5)
    assert np.allclose(out.numpy(), ref)
    print("ok")
