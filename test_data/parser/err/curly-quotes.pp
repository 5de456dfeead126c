a = “quoted”
