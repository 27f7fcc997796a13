import torch


def encode_transcript(text, dictionary):
    """Map characters of a transcript to alignment-model token ids.

    Args:
        text (str): transcript of one segment.
        dictionary (dict): character -> id of the CTC alignment model.

    Returns:
        torch.Tensor of shape (num_chars,): token ids, -1 for characters that are
        not in the dictionary (they act as wildcards during alignment).
    """
    ids = [dictionary.get(ch, -1) for ch in text.lower()]
    return torch.tensor(ids, dtype=torch.long)


def wildcard_emission(frame_emission, tokens, blank_id):
    """Per-token emission scores of one frame, wildcards take the best non-blank score.

    Args:
        frame_emission (torch.Tensor of shape (vocab,)): log-probs of one frame.
        tokens (torch.Tensor of shape (num_chars,)): token ids, -1 = wildcard.
        blank_id (int): id of the CTC blank.

    Returns:
        torch.Tensor of shape (num_chars,).
    """
    wildcard = tokens == -1
    regular = frame_emission[tokens.clamp(min=0)]
    non_blank = frame_emission.clone()
    non_blank[blank_id] = float("-inf")
    return torch.where(wildcard, non_blank.max(), regular)


def trellis(emission, tokens, blank_id=0):
    """emission: (num_frames, vocab) log-probs; returns (num_frames + 1, num_chars + 1)."""
    num_frames, num_tokens = emission.size(0), tokens.numel()
    out = torch.full((num_frames + 1, num_tokens + 1), float("-inf"))
    out[0, 0] = 0.0
    out[1:, 0] = torch.cumsum(emission[:, blank_id], 0)
    for t in range(num_frames):
        stay = out[t, 1:] + emission[t, blank_id]
        move = out[t, :-1] + wildcard_emission(emission[t], tokens, blank_id)
        out[t + 1, 1:] = torch.maximum(stay, move)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    dictionary = {c: i + 1 for i, c in enumerate("abcdefghijklmnopqrstuvwxyz '")}
    emission = torch.log_softmax(torch.randn(40, len(dictionary) + 1), dim=-1)
    tokens = encode_transcript("Hello wörld", dictionary)
    path = trellis(emission, tokens)
    # loop reference for the per-frame emission lookup
    for t in (0, 7, 39):
        got = wildcard_emission(emission[t], tokens, 0)
        best = max(emission[t, v].item() for v in range(1, emission.size(1)))
        for j, tok in enumerate(tokens.tolist()):
            want = best if tok == -1 else emission[t, tok].item()
            assert abs(got[j].item() - want) < 1e-6
    assert torch.isfinite(path[-1, -1])
    print("ok")
