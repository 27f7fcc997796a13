from math import ceil

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn import Module


def exists(val):
    return val is not None


def default(val, d):
    return val if exists(val) else d


# nucleus

def top_p(logits, thres = 0.9):
    sorted_logits, sorted_indices = torch.sort(logits, descending = True)
    cum_probs = torch.cumsum(F.softmax(sorted_logits, dim = -1), dim = -1)

    sorted_indices_to_remove = cum_probs > thres
    sorted_indices_to_remove = F.pad(sorted_indices_to_remove, (1, -1), value = False)

    sorted_logits[sorted_indices_to_remove] = float('-inf')
    return sorted_logits.scatter(1, sorted_indices, sorted_logits)

# topk

def top_k(logits, thres = 0.9, k = None):
    k = default(k, ceil((1 - thres) * logits.shape[-1]))
    val, ind = torch.topk(logits, k)
    probs = torch.full_like(logits, float('-inf'))
    probs.scatter_(1, ind, val)
    return probs

# top_a

def top_a(logits, min_p_pow = 2.0, min_p_ratio = 0.02):
    probs = F.softmax(logits, dim=-1)
    limit = torch.pow(torch.max(probs), min_p_pow) * min_p_ratio
    return torch.where(probs < limit, float('-inf'), logits)


class AutoregressiveWrapper(Module):
    def __init__(self, net, pad_value = 0, max_seq_len = 32):
        super().__init__()
        self.net = net
        self.pad_value = pad_value
        self.max_seq_len = max_seq_len

    @torch.no_grad()
    def generate(
        self,
        prompts,
        seq_len,
        temperature = 1.,
        filter_logits_fn = top_k,
        filter_kwargs: dict = dict(),
    ):
        t = prompts.shape[-1]
        out = prompts

        for _ in range(seq_len):
            x = out[:, -self.max_seq_len:]
            logits = self.net(x)[:, -1]

            filtered_logits = filter_logits_fn(logits, **filter_kwargs)
            probs = F.softmax(filtered_logits / temperature, dim = -1)
            sample = torch.multinomial(probs, 1)

            out = torch.cat((out, sample), dim = -1)

        return out[:, t:]


class BigramLM(Module):
    def __init__(self, num_tokens):
        super().__init__()
        self.table = nn.Embedding(num_tokens, num_tokens)

    def forward(self, x):
        return self.table(x)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_tokens = 64
    lm = BigramLM(num_tokens)
    with torch.no_grad():
        lm.table.weight.normal_(0., 0.3)
        lm.table.weight[1] = 0.
        lm.table.weight[1, 7] = 6.      # after token 1 the model is confident
    wrapper = AutoregressiveWrapper(lm)

    prompts = torch.tensor([[5, 1],     # confident continuation
                            [5, 2]])    # open-ended continuation

    last_logits = lm(prompts)[:, -1]
    kept = (top_a(last_logits) > float('-inf')).sum(-1)
    print("tokens kept by top_a per row:", kept.tolist())

    batch = prompts.repeat(200, 1)      # rows alternate between the two prompts
    samples = wrapper.generate(batch, 1, filter_logits_fn = top_a)
    print("distinct tokens sampled after token 2:", samples[1::2].unique().numel(), "of", num_tokens)
