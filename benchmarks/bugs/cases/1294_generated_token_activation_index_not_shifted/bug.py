import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class TinyDecoder(nn.Module):
    def __init__(self, vocab_size: int, hidden_size: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.mix = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    def forward(self, ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq hidden"]:
        return self.mix(self.embed(ids))[0]


def generation_token_activations(
    hidden: Float[Tensor, "batch seq hidden"], input_token_len: int, token_in_generation_idx: Int[Tensor, " k"]
) -> Float[Tensor, "batch k hidden"]:
    """Activation that produced each selected generated token (causal: position p predicts token p + 1)."""
    positions = input_token_len + token_in_generation_idx
    return hidden.index_select(1, positions)


def token_confidence(
    model: TinyDecoder, sequences: Int[Tensor, "batch seq"], input_token_len: int, token_idx: Int[Tensor, " k"]
) -> Float[Tensor, "batch k"]:
    hidden = model(sequences)
    acts = generation_token_activations(hidden, input_token_len, token_idx)
    logp = model.lm_head(acts).log_softmax(-1)
    chosen = sequences[:, input_token_len + token_idx]
    return logp.gather(-1, chosen.unsqueeze(-1)).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyDecoder(vocab_size=50, hidden_size=32)
    sequences = torch.randint(0, 50, (3, 20))
    input_token_len = 12
    token_idx = torch.tensor([0, 2, 5, 7])
    with torch.no_grad():
        conf = token_confidence(model, sequences, input_token_len, token_idx)
        hidden = model(sequences)
        ref = torch.empty(3, 4)
        for b in range(3):
            for j, g in enumerate(token_idx.tolist()):
                pos = input_token_len + g
                logits = model.lm_head(hidden[b, pos - 1])
                ref[b, j] = logits.log_softmax(-1)[sequences[b, pos]]
    print("confidence:", conf[0].tolist())
    print("reference: ", ref[0].tolist())
