import torch
import torch.nn as nn


class BagOfWordsEncoder(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)

    def forward(self, token_ids, bag_ids, num_bags):
        """Sum token embeddings into one vector per bag.

        Args:
            token_ids (`torch.LongTensor` of shape `(num_tokens,)`):
                Flattened token ids of all documents in the batch.
            bag_ids (`torch.LongTensor` of shape `(num_tokens,)`):
                Document index of every token, in `[0, num_bags)`.
            num_bags (`int`):
                Number of documents.

        Returns:
            `torch.FloatTensor` of shape `(num_bags, dim)`: summed embeddings.
        """
        vectors = self.emb(token_ids)
        out = vectors.new_zeros(num_bags, vectors.size(1))
        out.index_add_(0, bag_ids, vectors)
        return out


def collate(docs):
    token_ids = torch.cat([torch.tensor(d) for d in docs])
    bag_ids = torch.cat([torch.full((len(d),), i) for i, d in enumerate(docs)])
    return token_ids, bag_ids


if __name__ == "__main__":
    torch.manual_seed(0)
    docs = [[4, 7, 7, 1], [2], [9, 3, 5]]
    enc = BagOfWordsEncoder(vocab_size=12, dim=6)
    tokens, bags = collate(docs)
    sums = enc(tokens, bags, len(docs))
    for i, d in enumerate(docs):
        ref = torch.zeros(6)
        for t in d:
            ref = ref + enc.emb.weight[t]
        assert torch.allclose(sums[i], ref, atol=1e-6)
    print("ok")
