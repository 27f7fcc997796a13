import torch
from jaxtyping import Float, Int
from typing import Tuple


def sample_step(logits: Float[torch.Tensor, "batch vocab"], temperature: float
                ) -> Tuple[Int[torch.Tensor, "batch 1"], Float[torch.Tensor, "batch 1"]]:
    """Pick the next token; keep ids integer and scores in the model dtype."""
    scores = (logits / temperature).log_softmax(-1)
    chosen = scores.argmax(-1, keepdim=True)
    chosen_scores = scores.gather(-1, chosen)
    return chosen, chosen_scores


def rescore(records: Tuple[Int[torch.Tensor, "batch 1"], Float[torch.Tensor, "batch 1"]],
            ref_logits: Float[torch.Tensor, "batch vocab"]) -> Float[torch.Tensor, "batch"]:
    token_ids: Int[torch.Tensor, "batch"] = records[0].squeeze(-1)
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
    ref_logp = ref_logits.log_softmax(-1)
    for row, tok in enumerate(targets):
        assert records[0][row, 0].item() == tok
        assert abs(ref_scores[row].item() - ref_logp[row, tok].item()) < 1e-6
    print("ok")
