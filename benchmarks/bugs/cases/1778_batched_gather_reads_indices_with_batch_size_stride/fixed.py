import torch
from jaxtyping import Float, Int
from torch import Tensor


def batch_gather(
    params: Float[Tensor, "batch n d"], indices: Int[Tensor, "batch k"]
) -> Float[Tensor, "batch k d"]:
    """gather(params, indices, axis=1, batch_dims=1) written over flat buffers, as the backend kernel does."""
    batch_size, n, d = params.shape
    indices_per_batch = indices.numel() // batch_size
    flat_params = params.reshape(batch_size * n, d)
    flat_indices = indices.reshape(-1)
    batch_loc = torch.arange(batch_size).repeat_interleave(indices_per_batch)
    indices_loc = torch.arange(indices_per_batch).repeat(batch_size)
    idx = flat_indices[batch_loc * indices_per_batch + indices_loc]
    rows = batch_loc * n + idx
    return flat_params.index_select(0, rows).view(batch_size, indices_per_batch, d)


def pool_selected_frames(
    frames: Float[Tensor, "batch n d"], keyframe_ids: Int[Tensor, "batch k"]
) -> Float[Tensor, "batch d"]:
    return batch_gather(frames, keyframe_ids).mean(dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    frames = torch.randn(3, 7, 4)
    keyframe_ids = torch.randint(0, 7, (3, 5))

    pooled = pool_selected_frames(frames, keyframe_ids)

    ref = torch.zeros(3, 4)
    for b in range(3):
        for j in range(5):
            ref[b] += frames[b, keyframe_ids[b, j]] / 5
    assert torch.allclose(pooled, ref, atol=1e-6), (pooled - ref).abs().max()
    print("ok")
