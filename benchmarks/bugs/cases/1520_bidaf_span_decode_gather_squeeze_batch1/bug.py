import torch
from torch import nn

CFG = {"vocab": 40, "hidden": 12, "batch_size": 3, "num_examples": 7, "c_len": 9}


class SpanHead(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab"], cfg["hidden"])
        self.p1 = nn.Linear(cfg["hidden"], 1)
        self.p2 = nn.Linear(cfg["hidden"], 1)

    def forward(self, context):
        h = self.embed(context)
        return self.p1(h).squeeze(-1), self.p2(h).squeeze(-1)


def decode_spans(p1, p2):
    batch_size, c_len = p1.size()
    ls = nn.LogSoftmax(dim=1)
    mask = (torch.ones(c_len, c_len) * float("-inf")).tril(-1).unsqueeze(0).expand(batch_size, -1, -1)
    score = (ls(p1).unsqueeze(2) + ls(p2).unsqueeze(1)) + mask
    score, s_idx = score.max(dim=1)
    score, e_idx = score.max(dim=1)
    s_idx = torch.gather(s_idx, 1, e_idx.view(-1, 1)).squeeze()
    return s_idx, e_idx


def evaluate(model, batches):
    answers = {}
    for ids, context in batches:
        p1, p2 = model(context)
        s_idx, e_idx = decode_spans(p1, p2)
        for i in range(context.size(0)):
            answers[ids[i]] = context[i][s_idx[i] : e_idx[i] + 1].tolist()
    return answers


def make_batches(cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    contexts = torch.randint(0, cfg["vocab"], (cfg["num_examples"], cfg["c_len"]), generator=g)
    ids = [f"q{n}" for n in range(cfg["num_examples"])]
    bs = cfg["batch_size"]
    return [(ids[k : k + bs], contexts[k : k + bs]) for k in range(0, cfg["num_examples"], bs)]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SpanHead(CFG)
    with torch.no_grad():
        answers = evaluate(model, make_batches(CFG))
    print(answers)
