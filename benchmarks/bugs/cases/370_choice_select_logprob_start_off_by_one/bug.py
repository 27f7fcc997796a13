import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        # ids: [L] -> logits [L, V]; logits[t] scores the token at t + 1
        return self.head(self.rnn(self.emb(ids)[None])[0][0])


def input_token_logprobs(logits, input_ids, logprob_start_len):
    # logits: [L, V], input_ids: [L]
    # log p(input_ids[t] | input_ids[:t]) for t = logprob_start_len + 1 .. L - 1  -> [L - start - 1]
    logp = logits[logprob_start_len:-1].log_softmax(dim=-1)  # [L - start - 1, V]
    targets = input_ids[logprob_start_len + 1:]  # [L - start - 1]
    return logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)


@torch.no_grad()
def select(model, prompt_ids, choices):
    # prompt_ids: [P]; choices: list of [C_i] token ids; greedy on the first choice token
    prompt_len = prompt_ids.numel()
    first_token_lp = []
    for choice in choices:
        ids = torch.cat([prompt_ids, choice])  # [P + C_i]
        logprobs = input_token_logprobs(model(ids), ids, logprob_start_len=prompt_len - 2)
        first_token_lp.append(logprobs[0])
    return int(torch.stack(first_token_lp).argmax()), torch.stack(first_token_lp)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLM()
    prompt = torch.tensor([3, 17, 8, 25, 11])
    choices = [torch.tensor([4, 9]), torch.tensor([30, 2, 6]), torch.tensor([12])]
    picked, scores = select(model, prompt, choices)
    with torch.no_grad():
        logp_next = model(prompt).log_softmax(-1)[-1]  # distribution of the first token after the prompt
    ref = [logp_next[c[0]].item() for c in choices]
    print("picked:", picked, "scores:", [round(s, 3) for s in scores.tolist()])
    print("reference pick:", max(range(len(ref)), key=lambda i: ref[i]), [round(s, 3) for s in ref])
