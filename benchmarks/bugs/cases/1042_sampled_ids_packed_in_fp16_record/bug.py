import torch
from jaxtyping import Float, Int


def sample_step(logits: Float[torch.Tensor, "batch vocab"], temperature: float
                ) -> Float[torch.Tensor, "batch 2"]:
    """Pick the next token and pack (token, score) into one record in the model dtype."""
    scores = (logits / temperature).log_softmax(-1)
    chosen = scores.argmax(-1, keepdim=True)
    chosen_scores = scores.gather(-1, chosen)
    return torch.cat([chosen.to(logits.dtype), chosen_scores], dim=-1)


def rescore(records: Float[torch.Tensor, "batch 2"],
            ref_logits: Float[torch.Tensor, "batch vocab"]) -> Float[torch.Tensor, "batch"]:
    token_ids: Int[torch.Tensor, "batch"] = records[:, 0].long()
    ref_logp = ref_logits.float().log_softmax(-1)
    return ref_logp.gather(-1, token_ids.unsqueeze(-1)).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = 32000
    logits = torch.randn(3, vocab).half()
    targets = [30001, 12345, 4099]
    for row, tok in enumerate(targets):
        logits[row, tok] = 20.0
    ref_logits = torch.randn(3, vocab)
    records = sample_step(logits, temperature=1.0)
    ref_scores = rescore(records, ref_logits)
    print("ids read back:", records[:, 0].long().tolist(), "sampled:", targets)
    print("reference log-probs:", ref_scores.tolist())
