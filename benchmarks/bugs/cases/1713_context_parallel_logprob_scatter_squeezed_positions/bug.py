import torch


def all_reduce_over_cp_group(partials):
    return torch.stack(partials).sum(0)


def _unshard_cp_values(local_values, position_ids, cp_size):
    mbs, length = local_values.shape[:2]
    output = local_values.new_zeros(mbs, length * cp_size, *local_values.shape[2:])
    for row_vals, row_pos, row_out in zip(local_values, position_ids, output):
        row_out.scatter_(0, row_pos.long(), row_vals)
    return output


def reduce_from_context_parallel_region(logprobs, inputs, parallel_state):
    if parallel_state["cp_size"] > 1:
        logprobs = _unshard_cp_values(
            logprobs, inputs["all_token_position_ids"].squeeze(0), parallel_state["cp_size"]
        )
    return logprobs


def get_batch(tokens, cp_rank, cp_size):
    seq_len = tokens.shape[1]
    chunks = torch.arange(seq_len).chunk(2 * cp_size)
    position_ids = torch.cat([chunks[cp_rank], chunks[2 * cp_size - 1 - cp_rank]]).unsqueeze(0)
    return {"tokens": tokens.index_select(1, position_ids[0]), "all_token_position_ids": position_ids}


def token_logprobs(logits, tokens):
    return logits.log_softmax(-1).gather(-1, tokens.unsqueeze(-1)).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"vocab": 32, "seq_len": 16, "cp_size": 2}
    tokens = torch.randint(0, cfg["vocab"], (1, cfg["seq_len"]))
    full_logits = torch.randn(1, cfg["seq_len"], cfg["vocab"])
    partials = []
    for rank in range(cfg["cp_size"]):
        inputs = get_batch(tokens, rank, cfg["cp_size"])
        local_logits = full_logits.index_select(1, inputs["all_token_position_ids"][0])
        local_lp = token_logprobs(local_logits, inputs["tokens"])
        partials.append(reduce_from_context_parallel_region(local_lp, inputs, {"cp_size": cfg["cp_size"]}))
    logprobs = all_reduce_over_cp_group(partials)
    ref = torch.tensor([[full_logits[0, t].log_softmax(-1)[tokens[0, t]].item() for t in range(cfg["seq_len"])]])
    print("recovered token log-probs:", [round(v, 3) for v in logprobs[0].tolist()])
    print("positions left at 0.0:", int((logprobs == 0).sum()), "of", cfg["seq_len"], "| max |diff|:", (logprobs - ref).abs().max().item())
