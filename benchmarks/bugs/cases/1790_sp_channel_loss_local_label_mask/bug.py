import torch
import torch.nn.functional as F
from torch import Tensor
from jaxtyping import Float, Int, Bool

IGNORE = -100


def shard_shifted_labels(labels: Int[Tensor, "b s"], sp_world: int) -> list:
    shifted = torch.roll(labels, shifts=-1, dims=1)
    shifted[:, -1] = IGNORE
    return list(shifted.chunk(sp_world, dim=1))


def per_token_loss_sp(logits: Float[Tensor, "b s v"], shifted_shards: list, sp_world: int) -> Float[Tensor, "b s"]:
    # each sequence-parallel rank computes the loss of its shard; GatherLoss concatenates them
    parts = []
    for rank, (lg, lb) in enumerate(zip(logits.chunk(sp_world, dim=1), shifted_shards)):
        parts.append(F.cross_entropy(lg.transpose(1, 2), lb, ignore_index=IGNORE, reduction="none"))
    return torch.cat(parts, dim=1)


def channel_loss(token_loss: Float[Tensor, "b s"], labels: Int[Tensor, "b s_local"],
                 channels: list) -> dict:
    shifted = torch.roll(labels, shifts=-1, dims=1)
    shifted[:, -1] = IGNORE
    valid: Bool[Tensor, "b s_local"] = shifted != IGNORE
    metrics = {}
    for i, name in enumerate(channels):
        row_loss = token_loss[i][valid[i]]
        metrics[name] = row_loss.mean().item()
    return metrics


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, seq, vocab, sp_world = 2, 16, 11, 2
    labels = torch.randint(0, vocab, (batch, seq))
    labels[0, :5] = IGNORE
    labels[1, :3] = IGNORE
    logits = torch.randn(batch, seq, vocab)
    shards = shard_shifted_labels(labels, sp_world)
    token_loss = per_token_loss_sp(logits, shards, sp_world)
    local_labels = labels.chunk(sp_world, dim=1)[0]
    metrics = channel_loss(token_loss, local_labels, ["math", "code"])
    print(metrics)
