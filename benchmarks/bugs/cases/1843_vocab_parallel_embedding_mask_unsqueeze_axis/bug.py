import torch
import torch.nn as nn
import torch.nn.functional as F


class VocabParallelEmbedding(nn.Module):
    """Embedding table sharded over the vocabulary across tensor-parallel ranks.

    Args:
        num_embeddings: full vocabulary size V.
        embedding_dim: hidden size D.
        tp_rank: index of this rank.
        tp_size: number of ranks; each rank owns V // tp_size consecutive ids.
    """

    def __init__(self, num_embeddings, embedding_dim, tp_rank, tp_size):
        super().__init__()
        shard = num_embeddings // tp_size
        self.vocab_start_idx = tp_rank * shard
        self.vocab_end_idx = self.vocab_start_idx + shard
        self.weight = nn.Parameter(torch.randn(shard, embedding_dim))

    def forward(self, x):
        """Look up the ids owned by this rank.

        Args:
            x: (batch_size, seq_len) int64 token ids in [0, V).

        Returns:
            (batch_size, seq_len, embedding_dim) partial embeddings; rows of ids owned by
            other ranks are zero so that summing over ranks gives the full lookup.
        """
        mask = (x >= self.vocab_start_idx) & (x < self.vocab_end_idx)
        local_ids = (x - self.vocab_start_idx) * mask
        y = F.embedding(local_ids, self.weight)
        y = mask.unsqueeze(1) * y
        return y


def all_reduce_sum(partials):
    return torch.stack(partials).sum(0)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, dim, tp_size = 32, 8, 2
    shards = [VocabParallelEmbedding(vocab, dim, r, tp_size) for r in range(tp_size)]
    input_ids = torch.randint(0, vocab, (3, 6))
    hidden = all_reduce_sum([shard(input_ids) for shard in shards])
    print("hidden states:", hidden.shape, hidden.norm().item())
