import numpy as np
import torch


def convert_to_tensor(x, dtype=None):
    if isinstance(x, torch.Tensor):
        return x if dtype is None else x.to(dtype)
    return torch.as_tensor(np.asarray(x), dtype=dtype)


def take(x, indices, axis=None):
    x = convert_to_tensor(x)
    indices = convert_to_tensor(indices).long()
    if axis is None:
        return torch.take(x, indices)
    axis = axis + x.ndim if axis < 0 else axis
    indices = torch.where(indices < 0, indices + x.shape[axis], indices)
    out_shape = x.shape[:axis] + indices.shape + x.shape[axis + 1:]
    picked = torch.index_select(x, dim=axis, index=indices.reshape(-1))
    return picked.reshape(out_shape)


def take_along_axis(x, indices, axis):
    x = convert_to_tensor(x)
    indices = convert_to_tensor(indices).long()
    axis = axis + x.ndim if axis < 0 else axis
    x_shape = list(x.shape)
    idx_shape = list(indices.shape)
    x_shape[axis] = 1
    idx_shape[axis] = 1
    shape = list(torch.broadcast_shapes(x_shape, idx_shape))
    x_target = list(shape)
    x_target[axis] = x.shape[axis]
    idx_target = list(shape)
    idx_target[axis] = indices.shape[axis]
    return torch.take_along_dim(x.expand(x_target), indices.expand(idx_target), dim=axis)


def top_k_rows(scores, k):
    values, idx = torch.topk(scores, k, dim=-1)
    return values, take_along_axis(scores, idx, axis=-1), idx


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 7, 3)).astype("float32")
    idx = rng.integers(-7, 7, size=(2, 5))
    out = take(x, idx, axis=1)
    assert np.allclose(out.numpy(), np.take(x, idx, axis=1))
    flat_idx = rng.integers(0, x.size, size=(6,))
    assert np.allclose(take(x, flat_idx).numpy(), np.take(x, flat_idx))

    along = rng.integers(0, 7, size=(4, 2, 3))
    got = take_along_axis(x, along, axis=1)
    assert np.allclose(got.numpy(), np.take_along_axis(x, along, axis=1))
    bcast = rng.integers(0, 3, size=(1, 7, 1))
    assert np.allclose(take_along_axis(x, bcast, axis=2).numpy(), np.take_along_axis(x, bcast, axis=2))

    scores = torch.as_tensor(rng.standard_normal((3, 9)).astype("float32"))
    values, again, idx = top_k_rows(scores, 4)
    assert torch.equal(values, again)
    for r in range(3):
        for j in range(4):
            assert float(values[r, j]) == float(scores[r, idx[r, j]])
    print("ok")
