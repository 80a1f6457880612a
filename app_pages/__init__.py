"""The app's pages, one file each; app.py registers them with st.navigation and only the open one runs."""
