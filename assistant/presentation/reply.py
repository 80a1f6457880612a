"""placeholder"""
def reply_text(card):
    return ""
