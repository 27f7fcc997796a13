import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def continuation_logprob(
    logits: Float[Tensor, "seq vocab"], labels: Int[Tensor, "seq"], cont_idx: Int[Tensor, "cont"]
) -> Float[Tensor, ""]:
    cont_tok_targ = labels.index_select(dim=0, index=cont_idx - 1)  # targets of the continuation
    log_probs = logits.log_softmax(-1)
    cont_tok_log_probs_over_vocab = log_probs.index_select(dim=0, index=cont_idx - 1)  # (cont, vocab)
    cont_tok_log_probs = cont_tok_log_probs_over_vocab.index_select(dim=1, index=cont_tok_targ)
    return cont_tok_log_probs.sum()


def multiple_choice_pick(
    outputs: Float[Tensor, "choices seq vocab"],
    labels: Int[Tensor, "choices seq"],
    continuation_indices: list,
) -> int:
    scores = [continuation_logprob(outputs[i], labels[i], idx) for i, idx in enumerate(continuation_indices)]
    return int(torch.stack(scores).argmax())


class ToyLM(nn.Module):
    def __init__(self, vocab: int, dim: int):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq vocab"]:
        return self.head(torch.tanh(self.emb(ids)))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ToyLM(vocab=40, dim=16)
    input_ids = torch.randint(0, 40, (4, 12))  # 4 answer choices after a shared prompt
    labels = torch.roll(input_ids, -1, dims=1)  # labels[t] = input_ids[t + 1]
    cont_indices = [torch.arange(7, 7 + n) for n in (2, 3, 4, 3)]
    with torch.no_grad():
        outputs = model(input_ids)
    scores = [continuation_logprob(outputs[i], labels[i], cont_indices[i]).item() for i in range(4)]
    lp = outputs.log_softmax(-1)
    ref = [sum(lp[i, t - 1, labels[i, t - 1]].item() for t in cont_indices[i].tolist()) for i in range(4)]
    print("scores:   ", [round(s, 3) for s in scores])
    print("reference:", [round(s, 3) for s in ref])
    print("picked:", multiple_choice_pick(outputs, labels, cont_indices), "reference pick:", max(range(4), key=ref.__getitem__))
