import torch
import torch.nn as nn


class MultiHotFieldEmbedding(nn.Module):
    """Sum-pooled embeddings for variable-length multi-hot categorical fields (CTR models).

    Args:
        vocab_sizes (list[int]): vocabulary size of every field.
        embed_dim (int): embedding size E.
    """

    def __init__(self, vocab_sizes, embed_dim):
        super().__init__()
        self.embed_dim = embed_dim
        offsets = torch.tensor([0] + list(vocab_sizes[:-1])).cumsum(0)
        self.register_buffer("field_offsets", offsets)
        self.table = nn.Embedding(sum(vocab_sizes), embed_dim)

    def forward(self, ids, field_ids, bag_ids, num_bags):
        """
        Args:
            ids (LongTensor): (N,) raw ids, local to their field.
            field_ids (LongTensor): (N,) field of every id.
            bag_ids (LongTensor): (N,) which (example, field) bag every id belongs to.
            num_bags (int): B * F.

        Returns:
            Tensor: (num_bags, E) summed embeddings, and (num_bags,) bag sizes.
        """
        global_ids = ids + self.field_offsets.index_select(0, field_ids)
        vectors = self.table(global_ids)
        index = bag_ids.unsqueeze(1).expand(-1, self.embed_dim)
        pooled = torch.zeros(num_bags, self.embed_dim).scatter_add_(0, index, vectors)
        sizes = torch.zeros(num_bags).index_add_(0, bag_ids, torch.ones(ids.size(0)))
        return pooled, sizes


def mean_pool(pooled, sizes):
    """(num_bags, E) sums and (num_bags,) counts -> (num_bags, E) means, zeros for empty bags."""
    return pooled / sizes.clamp(min=1.0).unsqueeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab_sizes = [5, 7, 3]
    emb = MultiHotFieldEmbedding(vocab_sizes, embed_dim=4)
    # 2 examples x 3 fields = 6 bags; bag 4 (example 1, field 1) is empty
    ids = torch.tensor([1, 4, 0, 6, 6, 2, 3, 0, 2, 1])
    field_ids = torch.tensor([0, 0, 1, 1, 1, 2, 0, 0, 2, 2])
    bag_ids = torch.tensor([0, 0, 1, 1, 1, 2, 3, 3, 5, 5])
    pooled, sizes = emb(ids, field_ids, bag_ids, num_bags=6)
    means = mean_pool(pooled, sizes)
    with torch.no_grad():
        starts = [0, 5, 12]
        for bag in range(6):
            ref = [0.0] * 4
            cnt = 0
            for i in range(len(ids)):
                if int(bag_ids[i]) == bag:
                    row = starts[int(field_ids[i])] + int(ids[i])
                    cnt += 1
                    for e in range(4):
                        ref[e] += emb.table.weight[row, e].item()
            assert sizes[bag].item() == cnt
            for e in range(4):
                assert abs(pooled[bag, e].item() - ref[e]) < 1e-5
                assert abs(means[bag, e].item() - ref[e] / max(cnt, 1)) < 1e-5
    print("ok")
