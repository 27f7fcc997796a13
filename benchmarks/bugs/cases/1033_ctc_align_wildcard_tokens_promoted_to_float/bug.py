import torch


def build_tokens(transcript, dictionary):
    """Map a transcript to character ids of the alignment model.

    Args:
        transcript: the segment text.
        dictionary: char -> id of the CTC vocabulary (id 0 is the blank).

    Returns:
        tokens: `(num_chars,)` ids; characters the model cannot emit are -1 (wildcard).
    """
    pieces = []
    for word in transcript.lower().split():
        ids = [dictionary.get(c, -1) for c in word]
        if all(i == -1 for i in ids):
            pieces.append(-torch.ones(len(word)))   # whole word unalignable
        else:
            pieces.append(torch.tensor(ids))
    return torch.cat(pieces)


def get_wildcard_emission(frame_emission, tokens, blank_id):
    """Emission score of every token at one frame.

    Args:
        frame_emission: `(vocab_size,)` log-probs of one frame.
        tokens: `(num_tokens,)` token ids, -1 marks a wildcard.
        blank_id: index of the CTC blank.

    Returns:
        `(num_tokens,)` scores; a wildcard takes the best non-blank score.
    """
    wildcard_mask = tokens == -1
    regular_scores = frame_emission[tokens.clamp(min=0)]
    max_valid_score = frame_emission.clone()
    max_valid_score[blank_id] = float("-inf")
    max_valid_score = max_valid_score.max()
    return torch.where(wildcard_mask, max_valid_score, regular_scores)


def get_trellis(emission, tokens, blank_id=0):
    """Viterbi trellis.

    Args:
        emission: `(num_frames, vocab_size)` CTC log-probs.
        tokens: `(num_tokens,)` target ids.

    Returns:
        `(num_frames, num_tokens)` trellis.
    """
    num_frame, num_tokens = emission.size(0), len(tokens)
    trellis = torch.zeros((num_frame, num_tokens))
    trellis[1:, 0] = torch.cumsum(emission[1:, blank_id], 0)
    trellis[0, 1:] = -float("inf")
    trellis[-num_tokens + 1:, 0] = float("inf")
    for t in range(num_frame - 1):
        trellis[t + 1, 1:] = torch.maximum(
            trellis[t, 1:] + emission[t, blank_id],
            trellis[t, :-1] + get_wildcard_emission(emission[t], tokens[1:], blank_id),
        )
    return trellis


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = ["<blank>", "|"] + list("abcdefghijklmnopqrstuvwxyz'")
    dictionary = {c: i for i, c in enumerate(vocab)}
    emission = torch.log_softmax(torch.randn(60, len(vocab)), dim=-1)
    tokens = build_tokens("the meeting is on 2024 june", dictionary)
    print("tokens dtype:", tokens.dtype, "n:", tokens.numel())
    trellis = get_trellis(emission, tokens)
    print("trellis end score:", trellis[-1, -1].item())
