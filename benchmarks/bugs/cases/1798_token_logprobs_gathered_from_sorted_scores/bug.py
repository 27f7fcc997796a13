"""Completion log-probabilities for a text-completion server.

Returns the sampled tokens, their log-probabilities and the top-n alternatives.
"""
import torch


def make_completion(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    scores = torch.randn(cfg["n_tokens"], cfg["n_vocab"], generator=g) * cfg["temperature_scale"]
    tokens = torch.multinomial(torch.softmax(scores, dim=-1), 1, generator=g).squeeze(-1)
    return scores, tokens


def completion_logprobs(scores, tokens, top_n):
    logprobs = torch.log_softmax(scores, dim=-1)
    sorted_logprobs, sorted_ids = logprobs.sort(dim=-1, descending=True)
    token_logprobs = sorted_logprobs.gather(-1, tokens.unsqueeze(-1)).squeeze(-1)
    top_logprobs = [
        dict(zip(sorted_ids[i, :top_n].tolist(), sorted_logprobs[i, :top_n].tolist()))
        for i in range(tokens.numel())
    ]
    return {"tokens": tokens.tolist(), "token_logprobs": token_logprobs.tolist(), "top_logprobs": top_logprobs}


if __name__ == "__main__":
    cfg = {"seed": 0, "n_tokens": 5, "n_vocab": 50, "temperature_scale": 3.0}
    scores, tokens = make_completion(cfg)
    out = completion_logprobs(scores, tokens, top_n=1)
    for tok, lp, top in zip(out["tokens"], out["token_logprobs"], out["top_logprobs"]):
        print(f"token {tok:2d}  logprob {lp:8.3f}  top {top}")
