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
        self.in_emb.index_add_(0, centers, -lr * coef[:, None] * u)
        self.out_emb.index_add_(0, contexts, -lr * coef[:, None] * v)
        return torch.nn.functional.softplus(-score).mean().item()


if __name__ == "__main__":
    model = SkipGram(vocab_size=10, dim=4)
    ref_in, ref_out = model.in_emb.clone(), model.out_emb.clone()
    centers = torch.tensor([3, 3, 3, 7, 1, 3])
    contexts = torch.tensor([0, 5, 8, 2, 4, 9])
    model.sgd_step(centers, contexts)
    new_in, new_out = ref_in.clone(), ref_out.clone()
    for c, o in zip(centers.tolist(), contexts.tolist()):
        s = float((ref_in[c] * ref_out[o]).sum())
        coef = 1.0 / (1.0 + torch.exp(torch.tensor(-s))) - 1.0
        new_in[c] -= 0.5 * coef * ref_out[o]
        new_out[o] -= 0.5 * coef * ref_in[c]
    assert torch.allclose(model.in_emb, new_in, atol=1e-6)
    assert torch.allclose(model.out_emb, new_out, atol=1e-6)
    print("ok")
