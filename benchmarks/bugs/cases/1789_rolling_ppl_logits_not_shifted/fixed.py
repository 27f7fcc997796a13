import math
import torch
import torch.nn.functional as F


class BigramLM(torch.nn.Module):
    def __init__(self, config):
        super().__init__()
        self.table = torch.nn.Parameter(torch.randn(config["vocab_size"], config["vocab_size"]) * config["sharpness"])

    def forward(self, input_ids):
        return self.table[input_ids]


def loglikelihood_rolling(model, token_ids, max_length):
    total, count = 0.0, 0
    for start in range(0, len(token_ids) - 1, max_length):
        window = torch.tensor(token_ids[start:start + max_length + 1]).unsqueeze(0)
        logits = model(window)
        logprobs = F.log_softmax(logits[:, :-1], dim=-1)
        token_logprobs = logprobs.gather(-1, window[:, 1:].unsqueeze(-1)).squeeze(-1)
        total += token_logprobs.sum().item()
        count += token_logprobs.numel()
    return total, count


def build(cfg):
    torch.manual_seed(cfg["seed"])
    model = BigramLM(cfg)
    doc = torch.randint(0, cfg["vocab_size"], (cfg["doc_len"],)).tolist()
    return model, doc


if __name__ == "__main__":
    cfg = {"vocab_size": 20, "sharpness": 2.0, "doc_len": 50, "max_length": 16, "seed": 0}
    model, doc = build(cfg)
    with torch.no_grad():
        ll, n = loglikelihood_rolling(model, doc, cfg["max_length"])
        table_lp = F.log_softmax(model.table, dim=-1)
    ref_ll = sum(table_lp[doc[t], doc[t + 1]].item() for t in range(len(doc) - 1))
    ref_n = len(doc) - 1
    assert n == ref_n, (n, ref_n)
    assert abs(ll - ref_ll) < 1e-3 * abs(ref_ll), (ll, ref_ll)
    print("ok")
