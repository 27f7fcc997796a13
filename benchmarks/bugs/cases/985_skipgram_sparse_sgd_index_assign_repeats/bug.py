import torch


class SkipGram:
    """Skip-gram with hand-written sparse SGD (no autograd, no optimizer state).

    Args:
        vocab_size: number of words V.
        dim: embedding width D; both tables are [V, D].
    """

    def __init__(self, vocab_size, dim, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.in_emb = torch.randn(vocab_size, dim, generator=g) * 0.1
        self.out_emb = torch.randn(vocab_size, dim, generator=g) * 0.1

    def sgd_step(self, centers, contexts, lr=0.5):
        """One positive-pair step of the logistic loss -log sigmoid(v_c . u_o).

        Args:
            centers: LongTensor [B], center word ids; frequent words repeat in a batch.
            contexts: LongTensor [B], context word ids.
        Returns:
            mean loss over the batch (float).
        """
        v = self.in_emb[centers]                      # [B, D]
        u = self.out_emb[contexts]                    # [B, D]
        score = (v * u).sum(-1)                       # [B]
        coef = torch.sigmoid(score) - 1.0             # dL/dscore, [B]
        self.in_emb[centers] -= lr * coef[:, None] * u
        self.out_emb[contexts] -= lr * coef[:, None] * v
        return torch.nn.functional.softplus(-score).mean().item()


if __name__ == "__main__":
    model = SkipGram(vocab_size=10, dim=4)
    centers = torch.tensor([3, 3, 3, 7, 1, 3])
    contexts = torch.tensor([0, 5, 8, 2, 4, 9])
    before = model.in_emb[3].clone()
    per_pair = (torch.sigmoid((model.in_emb[centers] * model.out_emb[contexts]).sum(-1)) - 1.0)[:, None] \
        * model.out_emb[contexts]
    model.sgd_step(centers, contexts)
    print("row 3 moved by       ", (before - model.in_emb[3]).tolist())
    print("sum of its 4 updates ", (0.5 * per_pair[centers == 3].sum(0)).tolist())
