import torch


class RolloutPostprocessor:
    """Turns raw sampler outputs (left-padded prompt + right-padded response) into training tensors."""

    def __init__(self, eos_token_id, pad_token_id):
        self.eos_token_id = eos_token_id
        self.pad_token_id = pad_token_id

    def process_sequences(self, sequences, input_len):
        # sequences: [B, T], prompt occupies [:, :input_len]
        # the sampler already emits eos for finished rows; truncated rows keep their last token
        attention_mask = sequences.ne(self.pad_token_id).to(torch.long)

        # action i is token input_len + i; it counts while the previous token is not eos/pad
        state_seq = sequences[:, input_len - 1 : -1]  # [B, T - input_len]
        action_mask = state_seq.ne(self.eos_token_id) & state_seq.ne(self.pad_token_id)
        action_mask[:, 0] = 1
        return sequences, attention_mask, action_mask


def fake_rollout(prompts, responses, max_new_tokens, eos, pad):
    """Left-pad prompts, right-pad responses; a response without eos hit max_new_tokens."""
    input_len = max(len(p) for p in prompts)
    rows = []
    for p, r in zip(prompts, responses):
        rows.append([pad] * (input_len - len(p)) + p + r + [pad] * (max_new_tokens - len(r)))
    return torch.tensor(rows), input_len


if __name__ == "__main__":
    EOS, PAD = 2, 0
    prompts = [[11, 12, 13], [21, 22], [31, 32, 33]]
    responses = [
        [41, 42, EOS],          # finished early
        [51, 52, 53, 54, 55],   # truncated at max_new_tokens, no eos
        [61, 62, 63, 64, EOS],  # finished exactly at the limit
    ]
    seqs, input_len = fake_rollout(prompts, responses, max_new_tokens=5, eos=EOS, pad=PAD)
    generated = seqs.clone()

    post = RolloutPostprocessor(EOS, PAD)
    out, attn, action_mask = post.process_sequences(seqs, input_len)

    for b, resp in enumerate(responses):
        assert out[b, input_len:].tolist()[: len(resp)] == resp
        assert torch.equal(out[b], generated[b])
        for i in range(out.size(1) - input_len):
            prev = out[b, input_len - 1 + i].item()
            expected = i == 0 or prev not in (EOS, PAD)
            assert bool(action_mask[b, i]) == expected
        assert attn[b].sum().item() == sum(1 for t in generated[b].tolist() if t != PAD)
    print("ok")
