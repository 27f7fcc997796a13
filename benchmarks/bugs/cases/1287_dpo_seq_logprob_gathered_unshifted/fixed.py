import torch
import torch.nn as nn
import torch.nn.functional as F


def exists(v):
    return v is not None


class TinyCausalLM(nn.Module):
    def __init__(self, num_tokens, dim):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, x):
        h = self.token_emb(x).cumsum(dim=1)  # causal: position t only sees tokens <= t
        return self.to_logits(h.tanh())


def log_prob_from_model_and_seq(model, seq):
    src_seq, tgt_seq = seq[:, :-1], seq[:, 1:]
    logits = model(src_seq)
    log_prob = logits.log_softmax(dim=-1)
    log_probs = log_prob.gather(-1, tgt_seq[..., None])
    return log_probs[..., 0]


def masked_mean(log_probs, mask=None):
    if not exists(mask):
        return log_probs.mean(dim=-1)
    if mask.shape[-1] == log_probs.shape[-1] + 1:
        mask = mask[:, 1:]
    log_probs = log_probs.masked_fill(~mask, 0.)
    return log_probs.sum(dim=-1) / mask.sum(dim=-1).clamp(min=1e-5)


class DPO(nn.Module):
    def __init__(self, policy_model, ref_model, beta=0.1):
        super().__init__()
        self.policy_model, self.ref_model, self.beta = policy_model, ref_model, beta

    def forward(self, preferred_seq, unpreferred_seq, prompt_mask):
        mask = ~prompt_mask
        with torch.no_grad():
            ref_pref = masked_mean(log_prob_from_model_and_seq(self.ref_model, preferred_seq), mask)
            ref_unpref = masked_mean(log_prob_from_model_and_seq(self.ref_model, unpreferred_seq), mask)
        pol_pref = masked_mean(log_prob_from_model_and_seq(self.policy_model, preferred_seq), mask)
        pol_unpref = masked_mean(log_prob_from_model_and_seq(self.policy_model, unpreferred_seq), mask)
        logits = (pol_pref - pol_unpref) - (ref_pref - ref_unpref)
        return -F.logsigmoid(self.beta * logits).mean()


def build(cfg, seed):
    torch.manual_seed(seed)
    return TinyCausalLM(cfg["num_tokens"], cfg["dim"])


def reference_logprob(model, seq, mask):
    out = []
    for b in range(seq.shape[0]):
        terms = [model(seq[b:b + 1, :t])[0, -1].log_softmax(-1)[seq[b, t]]
                 for t in range(1, seq.shape[1]) if mask[b, t]]
        out.append(torch.stack(terms).mean())
    return torch.stack(out)


if __name__ == "__main__":
    cfg = {"num_tokens": 32, "dim": 16, "batch": 3, "seq_len": 10, "prompt_len": 4, "beta": 0.1}
    policy, ref = build(cfg, 0), build(cfg, 1)
    shape = (cfg["batch"], cfg["seq_len"])
    preferred, unpreferred = torch.randint(0, cfg["num_tokens"], shape), torch.randint(0, cfg["num_tokens"], shape)
    unpreferred[:, :cfg["prompt_len"]] = preferred[:, :cfg["prompt_len"]]
    prompt_mask = torch.arange(cfg["seq_len"]).expand(shape) < cfg["prompt_len"]
    loss = DPO(policy, ref, beta=cfg["beta"])(preferred, unpreferred, prompt_mask)
    with torch.no_grad():
        lp = {name: reference_logprob(m, s, ~prompt_mask) for name, m, s in
              [("pp", policy, preferred), ("pu", policy, unpreferred), ("rp", ref, preferred), ("ru", ref, unpreferred)]}
        ref_loss = -F.logsigmoid(cfg["beta"] * ((lp["pp"] - lp["pu"]) - (lp["rp"] - lp["ru"]))).mean()
    seq_lp = masked_mean(log_prob_from_model_and_seq(policy, preferred), ~prompt_mask)
    assert torch.allclose(seq_lp, lp["pp"], atol=1e-5)
    assert torch.allclose(loss, ref_loss, atol=1e-5)
    print("ok")
