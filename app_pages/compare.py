"""Treaty comparison page (rows = incomes, columns = treaties, each cell linked to its quote)."""
from app_support.compare_page import render

render()
