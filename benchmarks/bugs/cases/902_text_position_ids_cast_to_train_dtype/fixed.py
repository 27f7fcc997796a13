import torch
from jaxtyping import Float, Int
from torch import Tensor


def rope_table(max_pos: int, dim: int) -> Float[Tensor, "max_pos dim"]:
    inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
    angles = torch.arange(max_pos).float()[:, None] * inv_freq[None, :]
    return torch.cat([angles.cos(), angles.sin()], dim=-1)


def prepare_conditioning(
    text_ids: Int[Tensor, "batch seq"], train_dtype: torch.dtype
) -> dict:
    batch, seq = text_ids.shape
    positions = torch.arange(seq).expand(batch, seq)
    return {
        "text_ids": text_ids,
        "positions": positions,
    }


def rotary_features(
    table: Float[Tensor, "max_pos dim"], positions: Int[Tensor, "batch seq"]
) -> Float[Tensor, "batch seq dim"]:
    idx = positions.long()
    return table.index_select(0, idx.reshape(-1)).view(*idx.shape, table.shape[-1])


if __name__ == "__main__":
    max_pos, dim, seq = 1024, 8, 512
    table = rope_table(max_pos, dim)
    text_ids = torch.randint(0, 1000, (2, seq))
    cond = prepare_conditioning(text_ids, torch.bfloat16)
    feats = rotary_features(table, cond["positions"])
    for b in range(feats.shape[0]):
        for p in range(seq):
            assert torch.equal(feats[b, p], table[p])
    print("ok")
