import torch


class LinearAttStatePool:
    """SSM state pool for a linear-attention (Mamba-style) layer with MTP speculative decoding.

    Every request slot owns ``mtp_step + 1`` consecutive rows of ``ssm_states``: row 0 of the
    group holds the state after the last accepted token, rows 1.. hold the states after each
    draft token so a partially accepted draft can be rolled back without recomputation.

    Args:
        max_requests (int): number of request slots.
        mtp_step (int): number of draft tokens verified per decode step.
        state_dim (int): flattened size of one SSM state.
    """

    def __init__(self, max_requests, mtp_step, state_dim):
        self.mtp_step = mtp_step
        self.ssm_states = torch.zeros(max_requests * (mtp_step + 1), state_dim)


class InferState:
    """Per-forward indexing metadata.

    Args:
        b_req_idx (LongTensor): in prefill ``(batch,)``; in MTP decode
            ``(batch * (mtp_step + 1),)`` with the ``mtp_step + 1`` tokens of a request adjacent.
        is_prefill (bool): prefill or decode forward.
    """

    def __init__(self, b_req_idx, is_prefill, mtp_step):
        self.b_req_idx = b_req_idx
        if is_prefill:
            self.b_ssm_buffer_idx = b_req_idx * (mtp_step + 1)
            return
        att_batch_size = b_req_idx.numel() // (mtp_step + 1)
        self.b_conv_buffer_idx = b_req_idx.view(att_batch_size, mtp_step + 1)[:, 0].contiguous()
        self.b_ssm_buffer_idx = (self.b_conv_buffer_idx * (mtp_step + 1)).view(att_batch_size, 1) + torch.arange(
            mtp_step + 1, dtype=b_req_idx.dtype
        ).view(1, mtp_step + 1)


def ssm_scan(state, xs, decay):
    """Diagonal linear recurrence ``h_t = decay * h_{t-1} + x_t``.

    Args:
        state (Tensor): ``(batch, state_dim)`` initial state.
        xs (Tensor): ``(batch, steps, state_dim)`` inputs.

    Returns:
        Tensor: ``(batch, steps, state_dim)`` state after every step.
    """
    out = []
    for t in range(xs.shape[1]):
        state = decay * state + xs[:, t]
        out.append(state)
    return torch.stack(out, dim=1)


def prefill(pool, infer_state, prompt_inputs, decay):
    """Run the prompt and store the final state in the first row of each request's group."""
    batch, _, dim = prompt_inputs.shape
    final = ssm_scan(torch.zeros(batch, dim), prompt_inputs, decay)[:, -1]
    pool.ssm_states.index_copy_(0, infer_state.b_ssm_buffer_idx, final)


def mtp_decode(pool, infer_state, draft_inputs, decay):
    """Verify ``mtp_step + 1`` tokens per request starting from the accepted state.

    Args:
        draft_inputs (Tensor): ``(batch, mtp_step + 1, state_dim)``.

    Returns:
        Tensor: ``(batch, mtp_step + 1, state_dim)`` states after each token.
    """
    start = pool.ssm_states.index_select(0, infer_state.b_ssm_buffer_idx[:, 0])
    states = ssm_scan(start, draft_inputs, decay)
    pool.ssm_states[infer_state.b_ssm_buffer_idx.flatten()] = states.flatten(0, 1)
    return states


if __name__ == "__main__":
    torch.manual_seed(0)
    mtp_step, dim, decay = 2, 4, 0.9
    pool = LinearAttStatePool(max_requests=4, mtp_step=mtp_step, state_dim=dim)
    req_slots = torch.tensor([0, 1, 2])
    prompts = torch.randn(3, 5, dim)
    prefill(pool, InferState(req_slots, True, mtp_step), prompts, decay)

    drafts = torch.randn(3, mtp_step + 1, dim)
    decode_state = InferState(req_slots.repeat_interleave(mtp_step + 1), False, mtp_step)
    got = mtp_decode(pool, decode_state, drafts, decay)

    # reference: run every request's prompt followed by its draft tokens in one scan
    ref = torch.stack([ssm_scan(torch.zeros(1, dim), torch.cat([prompts[i:i + 1], drafts[i:i + 1]], 1), decay)[0, -3:]
                       for i in range(3)])
    assert decode_state.b_ssm_buffer_idx[:, 0].tolist() == [0, 3, 6]
    assert torch.allclose(got, ref, atol=1e-6)
    print("ok")
