import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class DataParallelGroup:
    """Stand-in for a Megatron data-parallel group: holds what every rank produced this step."""

    def __init__(self, rank: int, per_rank_batches: list[dict]):
        self.rank = rank
        self.world_size = len(per_rank_batches)
        self._batches = per_rank_batches

    def all_gather(self, tensor: Tensor, key: str) -> list[Tensor]:
        gathered = [batch[key].detach().clone() for batch in self._batches]
        gathered[self.rank] = tensor
        return gathered


def parse_multi_negative_sentences(sentences: Float[Tensor, "n d"], labels: Int[Tensor, "m"]) -> list[Tensor]:
    # labels hold one 1 per sample (its positive) followed by one 0 per negative;
    # sentences hold anchor + positive + negatives per sample, i.e. one more row per sample
    split_indices = torch.nonzero(labels, as_tuple=False).squeeze(-1).tolist()
    split_indices.append(len(labels))
    split_indices = [idx + i for i, idx in enumerate(split_indices)]
    return [sentences[split_indices[i]:split_indices[i + 1]] for i in range(len(split_indices) - 1)]


class MegatronInfonceLoss(nn.Module):
    def __init__(self, temperature: float = 0.1):
        super().__init__()
        self.temperature = temperature

    def forward(self, sentences: Float[Tensor, "n d"], labels: Int[Tensor, "m"], dp_group: DataParallelGroup):
        if dp_group.world_size > 1:
            all_sentences = dp_group.all_gather(sentences, "sentences")
            sentences: Float[Tensor, "N d"] = torch.cat(all_sentences, dim=0)
            # the sample boundaries must cover the gathered embeddings too, in rank order
            all_labels = dp_group.all_gather(labels, "labels")
            labels: Int[Tensor, "M"] = torch.cat(all_labels, dim=0)

        split_tensors = parse_multi_negative_sentences(sentences, labels)
        docs: Float[Tensor, "docs d"] = torch.cat([t[1:] for t in split_tensors], dim=0)
        loss, offset = 0.0, 0
        for group in split_tensors:
            scores: Float[Tensor, "docs"] = group[0] @ docs.T / self.temperature
            target: Int[Tensor, ""] = torch.tensor(offset)
            loss = loss + F.cross_entropy(scores.unsqueeze(0), target.unsqueeze(0))
            offset += group.shape[0] - 1
        return loss / len(split_tensors)


def make_rank_batch(num_negatives: list[int], dim: int, generator: torch.Generator):
    rows, labels = [], []
    for n in num_negatives:
        anchor = torch.randn(dim, generator=generator)
        positive = anchor + 0.1 * torch.randn(dim, generator=generator)
        negatives = torch.randn(n, dim, generator=generator)
        rows.append(torch.cat([anchor[None], positive[None], negatives]))
        labels += [1] + [0] * n
    return F.normalize(torch.cat(rows), dim=-1), torch.tensor(labels)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    # rank 0 has two samples with 2 negatives, rank 1 two samples with 3 and 1 negatives
    sent0, labels0 = make_rank_batch([2, 2], dim=8, generator=g)
    sent1, labels1 = make_rank_batch([3, 1], dim=8, generator=g)
    group = DataParallelGroup(rank=0, per_rank_batches=[
        {"sentences": sent0, "labels": labels0}, {"sentences": sent1, "labels": labels1}])
    loss_fn = MegatronInfonceLoss()
    loss = loss_fn(sent0, labels0, group)

    # reference: walk the global batch sample by sample
    sentences = torch.cat([sent0, sent1])
    samples, pos = [], 0
    for n in [2, 2, 3, 1]:
        samples.append(sentences[pos:pos + n + 2])
        pos += n + 2
    docs = [row for s in samples for row in s[1:]]
    total, offset = 0.0, 0
    for s in samples:
        logits = [float(s[0] @ d) / loss_fn.temperature for d in docs]
        m = max(logits)
        lse = m + torch.log(torch.tensor(sum(torch.exp(torch.tensor(x - m)).item() for x in logits))).item()
        total += lse - logits[offset]
        offset += s.shape[0] - 1
    assert abs(loss.item() - total / len(samples)) < 1e-4
    print("ok")
