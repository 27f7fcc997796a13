import math

import torch
from jaxtyping import Float, Int


class LogScoringModuleFn(torch.nn.Module):
    """Scores each candidate action by the log-likelihood of its tokens given the prompt."""

    def __init__(self, pad_token_id: int):
        super().__init__()
        self.pad_token_id = pad_token_id

    def forward(
        self,
        logits: Float[torch.Tensor, "n_actions act_len vocab"],
        action_ids: Int[torch.Tensor, "n_actions act_len"],
    ) -> Float[torch.Tensor, "n_actions"]:
        mask = (action_ids != self.pad_token_id).float()
        logprobs = torch.log_softmax(logits, dim=-1)            # normalise over the vocabulary first
        token_scores = torch.gather(logprobs, 2, action_ids.unsqueeze(-1)).squeeze(-1)
        return (token_scores * mask).sum(-1)


def fake_decoder_logits(n_actions: int, act_len: int, vocab: int) -> Float[torch.Tensor, "n_actions act_len vocab"]:
    g = torch.Generator().manual_seed(3)
    logits = torch.randn(n_actions, act_len, vocab, generator=g)
    logits[0] += 6.0            # candidate 0 was decoded with a flat, uniformly shifted distribution
    logits[1, :, 5] += 4.0      # candidate 1: the model is confident in token 5
    return logits


if __name__ == "__main__":
    actions = ["go north", "pick up key", "open door"]
    action_ids = torch.tensor([[7, 8, 0], [5, 5, 5], [9, 3, 0]])
    logits = fake_decoder_logits(len(actions), 3, 12)
    scorer = LogScoringModuleFn(pad_token_id=0)
    scores = scorer(logits, action_ids)
    for a in range(len(actions)):
        ref = 0.0
        for t in range(action_ids.size(1)):
            tok = int(action_ids[a, t])
            if tok == 0:
                continue
            row = logits[a, t].tolist()
            ref += row[tok] - math.log(sum(math.exp(v) for v in row))
        assert abs(scores[a].item() - ref) < 1e-4
    assert actions[int(scores.argmax())] == "pick up key"
    print("ok")
