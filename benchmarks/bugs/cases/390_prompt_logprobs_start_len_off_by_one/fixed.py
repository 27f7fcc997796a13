from dataclasses import dataclass

import torch


@dataclass
class LogprobRequest:
    input_ids: torch.Tensor
    logprob_start_len: int


def prompt_token_logprobs(logits, input_ids, logprob_start_len):
    """Log-probabilities of the prompt tokens from `logprob_start_len` on.

    Args:
        logits (`torch.FloatTensor` of shape `(seq_len, vocab_size)`):
            Prefill logits of one request; row `i` is the distribution of token `i + 1`.
        input_ids (`torch.LongTensor` of shape `(seq_len,)`):
            Prompt token ids.
        logprob_start_len (`int`):
            First prompt position whose log-probability is returned (at least 1).

    Returns:
        `torch.FloatTensor` of shape `(seq_len - logprob_start_len,)`.
    """
    log_probs = torch.log_softmax(logits[logprob_start_len - 1:-1], dim=-1)
    targets = input_ids[logprob_start_len:]
    return log_probs.gather(1, targets.unsqueeze(1)).squeeze(1)


def run_prefill(lm_head, embeddings, requests):
    results = []
    for req in requests:
        hidden = embeddings[req.input_ids].cumsum(0)
        logits = lm_head(hidden)
        results.append(prompt_token_logprobs(logits, req.input_ids, req.logprob_start_len))
    return results


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, dim = 64, 16
    embeddings = torch.randn(vocab, dim)
    lm_head = torch.nn.Linear(dim, vocab)
    requests = [LogprobRequest(torch.randint(0, vocab, (10,)), 3), LogprobRequest(torch.randint(0, vocab, (7,)), 1)]
    with torch.no_grad():
        out = run_prefill(lm_head, embeddings, requests)
        for req, got in zip(requests, out):
            logits = lm_head(embeddings[req.input_ids].cumsum(0))
            ref = [torch.log_softmax(logits[p - 1], -1)[req.input_ids[p]].item()
                   for p in range(req.logprob_start_len, len(req.input_ids))]
            assert torch.allclose(got, torch.tensor(ref), atol=1e-5)
    print("ok")
