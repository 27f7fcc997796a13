import torch

PLACEHOLDER_TOKEN_ID = -1


def compute_logprobs(logits, token_ids):
    """Log-probability of each sampled token.

    Args:
        logits: ``[num_tokens, padded_vocab]`` target-model logits, one row per sampled token.
        token_ids: ``[num_tokens]`` sampled token ids.

    Returns:
        ``[num_tokens]`` log-probabilities.
    """
    logprobs = logits.float().log_softmax(dim=-1)
    return logprobs.gather(-1, token_ids.unsqueeze(-1)).squeeze(-1)


def get_logprobs_tensors(output_token_ids, final_logits, cu_num_sampled_tokens, vocab_size):
    """Logprobs for the tokens the rejection sampler emitted.

    Args:
        output_token_ids: ``[num_reqs, num_spec + 1]``; accepted ids followed by
            ``PLACEHOLDER_TOKEN_ID`` after the first rejection.
        final_logits: ``[num_sampled, padded_vocab]`` target logits, requests stacked row-wise.
        cu_num_sampled_tokens: ``[num_reqs]`` first row of each request in ``final_logits``.
        vocab_size: size of the real vocabulary (``padded_vocab`` may be larger).

    Returns:
        ``[num_emitted]`` flat logprobs, in request order.
    """
    # same validity rule as parse_output, so rows and emitted tokens stay aligned
    accepted_mask = (output_token_ids != PLACEHOLDER_TOKEN_ID) & (output_token_ids < vocab_size)
    num_accepted = accepted_mask.sum(dim=-1)
    accepted_cols = accepted_mask.nonzero(as_tuple=True)[1]
    logit_rows = accepted_cols + cu_num_sampled_tokens.repeat_interleave(num_accepted)
    accepted_logits = final_logits.index_select(0, logit_rows)
    return compute_logprobs(accepted_logits, output_token_ids[accepted_mask])


def parse_output(output_token_ids, vocab_size):
    """Per-request lists of emitted token ids (placeholders and out-of-vocab ids dropped).

    Args:
        output_token_ids: ``[num_reqs, num_spec + 1]``.
        vocab_size: real vocabulary size.
    """
    valid_mask = (output_token_ids != PLACEHOLDER_TOKEN_ID) & (output_token_ids < vocab_size)
    return [row[mask].tolist() for row, mask in zip(output_token_ids, valid_mask)]


def attach_logprobs(token_lists, flat_logprobs):
    """Split the flat logprob vector back into per-request (token, logprob) pairs."""
    out, offset = [], 0
    for tokens in token_lists:
        out.append(list(zip(tokens, flat_logprobs[offset:offset + len(tokens)].tolist())))
        offset += len(tokens)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab_size, padded_vocab, num_spec = 60, 64, 3
    P = PLACEHOLDER_TOKEN_ID
    # request 0 got a draft token from the padded tail of the vocab (61)
    output_token_ids = torch.tensor([[5, 61, 7, P],
                                     [3, 4, P, P],
                                     [9, P, P, P]])
    final_logits = torch.randn(3 * (num_spec + 1), padded_vocab)
    cu_num_sampled_tokens = torch.tensor([0, 4, 8])
    flat = get_logprobs_tensors(output_token_ids, final_logits, cu_num_sampled_tokens, vocab_size)
    per_request = attach_logprobs(parse_output(output_token_ids, vocab_size), flat)
    lp = final_logits.log_softmax(-1)
    for r in range(3):
        ref = []
        for j in range(num_spec + 1):
            t = int(output_token_ids[r, j])
            if t != P and t < vocab_size:
                ref.append((t, lp[int(cu_num_sampled_tokens[r]) + j, t].item()))
        got = per_request[r]
        assert [t for t, _ in got] == [t for t, _ in ref], (r, got, ref)
        assert all(abs(a[1] - b[1]) < 1e-5 for a, b in zip(got, ref)), (r, got, ref)
    print("ok")
